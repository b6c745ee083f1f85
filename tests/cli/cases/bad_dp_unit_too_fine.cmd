stats dp --steps 1000 --slots 1000 --unit 1
