stats revolve --steps 10000 --slots 20 --json
