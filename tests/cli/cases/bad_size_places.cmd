stats store-all --steps 1 --state-bytes 1 --budget 1.00000000000000000001K
