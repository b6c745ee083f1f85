plan dp -n 5 -s 2
