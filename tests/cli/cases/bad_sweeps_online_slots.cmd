stats online --steps 100 --slots 3 --sweeps 2
