sweep --model none --steps 100 --state-bytes 1KiB --levels mem:w=3:r=3,disk:100:w=1:r=1 --planners hrevolve,revolve --budgets 4KiB --format csv
