sweep --steps 100 --state-bytes 1KiB --budgets 5KiB --planners revolve,sqrt --format json
