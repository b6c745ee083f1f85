check huge_steps.plan
