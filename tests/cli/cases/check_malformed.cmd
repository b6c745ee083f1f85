check - < malformed.plan
