check empty.plan
