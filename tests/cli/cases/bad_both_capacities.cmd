stats revolve --steps 10 --slots 2 --budget 1KiB --state-bytes 8
