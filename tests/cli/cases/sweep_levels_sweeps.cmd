sweep --model none --steps 300 --state-bytes 8 --sweeps 3 --levels mem,disk:20:w=3:r=3 --budgets 16,64 --planners revolve
