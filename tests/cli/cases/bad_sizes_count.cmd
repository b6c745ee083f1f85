stats dp --steps 7 --sizes sizes_short.txt --budget 10
