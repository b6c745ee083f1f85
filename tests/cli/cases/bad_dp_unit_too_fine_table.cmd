stats dp -n 100 -b 50 -B 1 --unit 1 --table-bytes 512KiB
