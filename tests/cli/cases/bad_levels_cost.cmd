stats revolve --steps 100 --levels mem:5:q=3
