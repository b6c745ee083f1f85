budget revolve -n 10 -B 8
