stats store-all --steps 40 --budget 320 --state-bytes 8
