stats revolve --steps 100 --levels mem:5,,disk:3
