budget revolve -n 10 -B 8 -F 2 --cost 30
