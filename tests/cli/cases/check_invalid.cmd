check - < broken.plan
