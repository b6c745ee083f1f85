stats --help
