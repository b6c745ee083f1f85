durable remove .
