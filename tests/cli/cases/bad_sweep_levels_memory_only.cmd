sweep --model none --steps 100 --state-bytes 1KiB --levels mem
