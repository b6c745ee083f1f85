stats revolve --steps 99999999999999999999 --slots 2
