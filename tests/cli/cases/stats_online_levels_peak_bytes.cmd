stats online --steps 100 --levels mem:5,disk:100:w=5:r=5 -B 1KiB
