stats dp -n 20 -s 4 --dp-mode fast
