plan revolve --steps 4 --slots 2 --sweeps 2
