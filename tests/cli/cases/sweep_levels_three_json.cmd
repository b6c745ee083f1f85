sweep --model none --steps 100 --state-bytes 1KiB --levels mem:w=1:r=1,ssd:8:w=2:r=2,pfs:16KiB:w=10:r=10 --planners hrevolve,revolve,store-all --budgets 4KiB,16KiB --format json
