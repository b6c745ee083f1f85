sweep --steps 10 --state-bytes 8 --planners revolve --format csv --budget-range 18446744073709551614:18446744073709551615:3
