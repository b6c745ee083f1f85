check level_cost_wraps.plan
