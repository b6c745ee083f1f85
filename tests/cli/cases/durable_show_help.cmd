durable show --help
