stats revolve --steps 10 --slots 2 --sweeps 0
