stats dp -n 100 -b 50 -B 1 -t 2 -j
