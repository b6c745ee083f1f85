stats online --steps 1000 --slots 10 --sweeps 3
