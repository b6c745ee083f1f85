stats revolve --steps 12abc --slots 2
