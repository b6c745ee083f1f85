sweep --steps 10 --state-bytes 8 --planners revolve --format csv --budget-range 1000000000000007:1000000000000007
