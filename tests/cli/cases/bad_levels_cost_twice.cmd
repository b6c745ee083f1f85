stats hrevolve --steps 100 --levels mem:5,disk:10:r=1:w=1:w=2
