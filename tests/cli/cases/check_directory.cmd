check .
