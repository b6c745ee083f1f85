stats revolve -n 20 -s 4 --threads 2
