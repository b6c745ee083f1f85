stats periodic --steps 10 --stride 11
