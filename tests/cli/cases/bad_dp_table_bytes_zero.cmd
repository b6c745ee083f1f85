stats dp -n 20 -s 4 --table-bytes 0
