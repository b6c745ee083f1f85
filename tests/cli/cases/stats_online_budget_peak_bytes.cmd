stats online --steps 1000 -b 100KiB -B 1KiB
