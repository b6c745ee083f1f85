stats revolve --steps 6 --slots 2 --max-steps 9
