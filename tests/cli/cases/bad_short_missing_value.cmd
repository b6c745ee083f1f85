stats revolve -s 2 -n
