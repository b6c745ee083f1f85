stats dp -n 300 -b 100 -B 1 --table-bytes 1MiB --dp-mode exact
