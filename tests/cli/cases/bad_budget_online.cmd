budget online -n 100 -B 8 -F 3
