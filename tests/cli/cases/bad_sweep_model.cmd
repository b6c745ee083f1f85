sweep --model lorenz
