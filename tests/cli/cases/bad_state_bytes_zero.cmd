stats revolve --steps 10 --budget 100 --state-bytes 0
