stats store-all --steps 1 --state-bytes 0.5 --budget 1
