sweep --model libx.so
