plan periodic --steps 5 --stride 2 --format json
