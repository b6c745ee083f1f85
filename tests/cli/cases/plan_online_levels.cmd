plan online --steps 12 --levels mem:2,disk:3:w=2:r=2
