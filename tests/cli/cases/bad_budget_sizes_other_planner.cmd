budget revolve -n 7 --sizes sizes7.txt -F 2
