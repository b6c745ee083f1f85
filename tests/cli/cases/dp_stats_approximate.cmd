stats dp -n 1000 -b 200 -B 1 --dp-mode approximate -j
