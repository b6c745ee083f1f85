stats periodic --steps 100 --slots 5
