stats dp -n 100 -b 50 -B 1 --threads 1 -j
