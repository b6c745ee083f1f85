plan online --steps 7 --sizes online_sizes.txt --budget 3 --json
