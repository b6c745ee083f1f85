budget revolve -n 100 -B 10EiB -F 1
