durable remove /nonexistent/uturn-durable
