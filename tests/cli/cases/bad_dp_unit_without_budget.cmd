stats dp --steps 7 --slots 3 --unit 1
