stats online -n 5 -s 4 --max-steps 0
