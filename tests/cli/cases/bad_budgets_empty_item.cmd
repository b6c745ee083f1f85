sweep --steps 10 --state-bytes 8 --budgets 1KiB,,2KiB
