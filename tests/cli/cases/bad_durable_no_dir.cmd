durable show /nonexistent/uturn-durable
