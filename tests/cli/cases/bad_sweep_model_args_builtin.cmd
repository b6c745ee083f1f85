sweep --model-args grid=64 --steps 10
