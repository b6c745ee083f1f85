budget hrevolve -n 60 -B 8 -l mem,disk:20:w=3:r=3 -F 1.89 -j
