stats store-all --steps 1 --state-bytes 1 --budget 17179869183.9999999999G
