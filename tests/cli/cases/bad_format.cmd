stats revolve --steps 10 --slots 2 --format xml
