stats dp -n 20 -s 4 --threads 5000
