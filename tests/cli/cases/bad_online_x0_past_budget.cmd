stats online --steps 4 --sizes online_x0_big.sizes --budget 100
