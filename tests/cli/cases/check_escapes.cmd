check escape.plan
