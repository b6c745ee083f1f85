stats quicksort --steps 10 --slots 2
