stats revolve --slots 2
