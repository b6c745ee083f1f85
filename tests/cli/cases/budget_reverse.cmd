budget revolve -n 100 -B 1K -b 40K
