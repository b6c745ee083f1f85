stats revolve --steps 1000000000000 --slots 1
