stats revolve --steps 100 --slots 5 --sweeps 18446744073709551615
