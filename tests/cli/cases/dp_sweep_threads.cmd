sweep -n 50 -B 8 -p dp,revolve -b 64,128 -t 2
