budget revolve -n 10 -B 8 -F 2x
