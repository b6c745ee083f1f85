sweep --steps 40 --state-bytes 8 --budgets 8,104,320 --format csv
