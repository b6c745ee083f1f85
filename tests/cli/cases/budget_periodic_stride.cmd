budget periodic -n 40 -B 1 -k 4 -F 2 -j
