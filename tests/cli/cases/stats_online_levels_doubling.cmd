stats online --steps 600 --max-steps 600 --levels mem:5,disk:20:w=5:r=5
