stats revolve --steps 100 --levels mem:5:w=1:r=2 --json
