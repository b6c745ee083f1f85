stats revolve --steps 100 --budget 100 --state-bytes 1KiB
