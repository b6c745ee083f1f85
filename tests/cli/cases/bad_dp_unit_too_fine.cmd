stats dp --steps 1000 --budget 1000 --state-bytes 1 --unit 1
