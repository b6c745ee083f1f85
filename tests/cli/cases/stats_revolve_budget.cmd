stats revolve --steps 1000 --budget 10KiB --state-bytes 1KiB --json
