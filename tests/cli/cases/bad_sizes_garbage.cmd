stats dp --steps 2 --sizes sizes_garbage.txt --budget 10
