stats dp --steps 2 --sizes sizes_zero.txt --budget 10
