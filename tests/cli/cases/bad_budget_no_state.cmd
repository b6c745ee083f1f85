budget revolve -n 10 -F 2
