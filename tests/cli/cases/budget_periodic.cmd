budget periodic -n 40 -B 1 -F 2 -j
