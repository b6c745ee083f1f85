budget hrevolve -n 100 -B 8 -l mem,disk:100:w=5:r=5 --cost 284
