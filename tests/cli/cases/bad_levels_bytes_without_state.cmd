stats revolve --steps 100 --levels mem:4KiB
