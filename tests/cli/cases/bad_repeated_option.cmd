stats revolve --steps 10 --steps 11 --slots 3
