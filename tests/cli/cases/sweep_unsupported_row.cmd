sweep --steps 1099511627777 --state-bytes 8 --planners store-all,periodic,revolve --budgets 1KiB
