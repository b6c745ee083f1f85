stats revolve -n 100 -b 40KiB -B 8KiB -j
