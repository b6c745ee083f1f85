check - < unfinished.plan
