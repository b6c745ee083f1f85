stats revolve --steps 10 --budget 1KiB
