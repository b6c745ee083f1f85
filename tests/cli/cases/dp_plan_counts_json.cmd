plan dp -n 3 -s 2 -j
