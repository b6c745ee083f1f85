sweep --steps 10 --state-bytes 8 --budgets 4 --format csv
