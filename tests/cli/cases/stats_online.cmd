stats online --steps 100 --slots 5
