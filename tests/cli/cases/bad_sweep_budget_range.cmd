sweep --steps 10 --state-bytes 8 --budget-range 100:10
