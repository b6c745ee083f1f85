stats online --steps 10 --slots 300
