budget revolve -n 1000 -B 8KiB -F 4
