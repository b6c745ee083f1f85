/*
 * The parts of the fuzz_planner target (fuzz_planner.c reads the first
 * byte of the input and hands the rest to one of them):
 *   fuzz_planner_uniform.c  store-all, periodic, sqrt and revolve;
 *   fuzz_planner_dp.c       dp: per-step sizes and costs, units, modes
 *                           and table limits;
 *   fuzz_planner_levels.c   hrevolve, and storage levels on any planner;
 *   fuzz_planner_sweeps.c   several reverse sweeps (revolve's sweeps).
 * The online planner has a target of its own (fuzz_online.c): its input
 * is a run, not a problem.
 */
#ifndef UTURN_FUZZ_PLANNER_H_INCLUDED
#define UTURN_FUZZ_PLANNER_H_INCLUDED

#include "fuzz_common.h"

void fz_planner_uniform(struct reader *r);
void fz_planner_dp(struct reader *r);
void fz_planner_levels(struct reader *r);
void fz_planner_sweeps(struct reader *r);
void fz_planner_sweeps_levels(struct reader *r);

#endif
