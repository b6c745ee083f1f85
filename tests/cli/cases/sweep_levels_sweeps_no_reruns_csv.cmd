sweep --model none --steps 100 --state-bytes 1KiB --sweeps 3 --levels mem:w=5:r=5,disk:8:w=1:r=1 --budgets 2KiB --format csv
