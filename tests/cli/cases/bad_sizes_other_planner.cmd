stats revolve --steps 7 --sizes sizes7.txt --budget 15
