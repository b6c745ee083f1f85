stats online --steps 1000 --slots 10 --json --walk
