stats revolve --steps 1000 --slots 15 --sweeps unbounded
