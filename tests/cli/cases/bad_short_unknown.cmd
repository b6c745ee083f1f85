stats revolve -n 10 -x 2
