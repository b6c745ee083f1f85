sweep -n 10 -B 8 -p revolve,periodic -b 16,32,1K -f csv
