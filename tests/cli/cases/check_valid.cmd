check - < valid.plan
