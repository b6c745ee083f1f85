stats revolve --slots 2 --steps
