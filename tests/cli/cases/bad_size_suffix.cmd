stats revolve --steps 10 --budget 3furlongs --state-bytes 8
