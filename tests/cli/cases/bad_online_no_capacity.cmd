stats online --steps 10
