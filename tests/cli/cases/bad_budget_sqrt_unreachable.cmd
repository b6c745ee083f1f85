budget sqrt -n 100 -B 1K -F 1.5
