stats online --steps 10 --levels mem:5:w=3:r=3,disk:10:w=1:r=1
