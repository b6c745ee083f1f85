stats revolve --steps 100
