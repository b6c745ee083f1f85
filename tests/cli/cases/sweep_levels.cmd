sweep --model none --steps 200 --state-bytes 1KiB --levels mem,disk:60:w=5:r=5 --budgets 2KiB,4KiB,16KiB,64KiB
