budget dp -n 200 -B 8 -F 2 -t 2 --dp-mode approximate
