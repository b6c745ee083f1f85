stats dp --steps 2000 --slots 1000 --unit 1
