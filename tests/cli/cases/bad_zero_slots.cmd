stats revolve --steps 10 --slots 0
