budget revolve -n 10 -B 8 -F 0.99
