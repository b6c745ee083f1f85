stats store-all --steps 10 --slots 9
