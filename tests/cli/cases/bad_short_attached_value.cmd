stats revolve -n100 -s 2
