sweep -m none -n 200 -B 8 -b 80,160 -p revolve,dp --dp-mode approximate
