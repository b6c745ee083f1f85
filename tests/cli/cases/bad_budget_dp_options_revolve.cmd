budget revolve -n 200 -B 8 -F 2 -t 2
