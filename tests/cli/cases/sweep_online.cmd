sweep --model none --steps 300 --state-bytes 2KiB --planners revolve,online --budgets 8KiB,32KiB
