sweep -n 10 -B 8 -rj
