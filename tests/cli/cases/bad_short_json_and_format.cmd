check -j -f text valid.plan
