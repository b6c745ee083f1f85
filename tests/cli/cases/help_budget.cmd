budget --help
