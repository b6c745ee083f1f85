check no-such-file.plan
