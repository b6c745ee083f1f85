stats --steps 10 --slots 2
