stats revolve -steps 10 -s 2
