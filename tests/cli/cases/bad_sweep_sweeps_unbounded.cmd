sweep --model none --steps 100 --state-bytes 1KiB --sweeps unbounded --budgets 2KiB --planners revolve
