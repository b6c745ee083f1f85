stats revolve --steps 100 --slots 4 --levels mem:4
