stats revolve -n 10 --steps 11 -s 2
