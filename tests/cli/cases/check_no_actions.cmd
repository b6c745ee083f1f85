check no_actions.plan
