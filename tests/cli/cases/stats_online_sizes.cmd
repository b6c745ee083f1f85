stats online --steps 7 --sizes online_sizes.txt --budget 20 --json
