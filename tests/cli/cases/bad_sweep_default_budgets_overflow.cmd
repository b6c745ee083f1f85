sweep --steps 10 --state-bytes 9223372036854775807
