stats revolve --steps 0 --slots 2
