budget dp -n 7 --sizes sizes7.txt --cost 20 -j
