durable remove -f
