plan --help
