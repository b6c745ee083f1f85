plan revolve --steps 2 --slots 2 --sweeps 2 --json
