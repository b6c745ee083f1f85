sweep -n 50 -B 8 -p revolve -b 64 -t 2
