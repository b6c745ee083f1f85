sweep --model ./libx.so --grid 64
