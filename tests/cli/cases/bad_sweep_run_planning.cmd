sweep --steps 10 --state-bytes 8 --run
