budget revolve -n 1000000000 -B 1MiB -F 3 -j
