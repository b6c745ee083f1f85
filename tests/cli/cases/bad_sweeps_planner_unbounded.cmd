stats store-all --steps 100 --slots 5 --sweeps unbounded
