sweep --steps 100 --state-bytes 1KiB --budgets 1KiB,5KiB,20KiB,100KiB
