check bad_planner.plan
