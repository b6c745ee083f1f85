check - < keyword.plan
