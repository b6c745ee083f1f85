stats revolve --steps 100 --state-bytes 1KiB --levels mem:5KiB
