sweep --steps 100 --sweeps 1048577
