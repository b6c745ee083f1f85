plan revolve --steps 6 --slots 2
