budget revolve -n 10 -B 8 -l mem,disk:5 -F 2
