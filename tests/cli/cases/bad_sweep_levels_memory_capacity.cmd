sweep --model none --steps 100 --state-bytes 1KiB --levels mem:5,disk:100:w=5:r=5
