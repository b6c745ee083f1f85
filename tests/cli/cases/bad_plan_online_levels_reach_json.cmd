plan online --steps 60 --levels mem:3,disk:5:w=3:r=3 --json
