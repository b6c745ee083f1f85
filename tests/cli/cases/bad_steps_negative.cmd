stats revolve --steps -5 --slots 2
