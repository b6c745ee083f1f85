stats revolve --steps 10 --slots 3 --json --format text
