stats revolve --steps 100000 --slots 50 --format json
