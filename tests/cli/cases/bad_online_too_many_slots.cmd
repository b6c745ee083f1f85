stats online --steps 10 --slots 1073741825
