sweep --steps 7 --sizes sizes7.txt --costs costs7.txt --budgets 5,10,15,20,43 --format csv
