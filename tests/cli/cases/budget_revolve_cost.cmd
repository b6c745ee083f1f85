budget revolve --steps 100 --state-bytes 1K --cost 320 --json
