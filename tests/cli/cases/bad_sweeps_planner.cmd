stats periodic --steps 100 --slots 15 --sweeps 3
