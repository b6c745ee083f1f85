stats periodic --steps 40 --stride 4 --walk --json
