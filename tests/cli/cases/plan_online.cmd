plan online --steps 6 --slots 2
