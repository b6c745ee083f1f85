budget -n 10 -B 8 -F 2
