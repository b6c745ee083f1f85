durable look /tmp
