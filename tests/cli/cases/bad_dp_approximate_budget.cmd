stats dp -n 100 -b 4 -B 8 --dp-mode approximate
