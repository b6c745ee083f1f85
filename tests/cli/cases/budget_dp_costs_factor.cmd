budget dp -n 7 -B 5 --costs costs7.txt -F 1.5 -j
