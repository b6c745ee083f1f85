stats dp --steps 7 --sizes sizes7.txt --costs costs7.txt --budget 15 --json
