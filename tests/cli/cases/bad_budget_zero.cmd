stats revolve --steps 10 --budget 0 --state-bytes 8
