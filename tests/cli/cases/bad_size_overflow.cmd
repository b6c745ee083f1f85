stats store-all --steps 1 --state-bytes 1 --budget 16EiB
