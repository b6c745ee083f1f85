stats dp --steps 2000 --budget 1000 --state-bytes 1 --unit 1
