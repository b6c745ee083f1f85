sweep -m none -n 10000000000 -B 8 --sweeps 1048576 -p revolve
