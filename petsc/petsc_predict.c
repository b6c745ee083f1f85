/*
 * The step count of a solve that is fixed before it starts: no adaptive
 * step (adapt "none"), no events, no time span, the step size as set.
 * TSSolve() then takes steps until the step number reaches max_steps or
 * the time reaches max_time, and with TS_EXACTFINALTIME_MATCHSTEP the
 * adapt stretches or shrinks the steps near the end to land on max_time.
 * This follows PETSc 3.18's TSStep() and TSAdaptChoose() exactly (the
 * same floating-point operations in the same order); the forward sweep
 * checks the prediction at every step, and a solve that ends elsewhere is
 * an error that says to use the online planner.
 */
#include "petsc_internal.h"

/* The most steps the prediction walks: past it the plan is online. */
#define MAX_PREDICTED (1ull << 30)

/* TSAdaptChoose()'s MATCHSTEP rule for the step after one ending at t. */
static PetscReal match_step(TSAdapt adapt, PetscReal t, PetscReal h,
                            PetscReal tmax)
{
    const PetscReal tend = t + h, hmax = tmax - t;
    const PetscReal a = (PetscReal)(1.0 + adapt->matchstepfac[0]);
    const PetscReal b = adapt->matchstepfac[1];
    PetscReal next    = h;
    if (t < tmax && tend > tmax)
        next = hmax;
    if (t < tmax && tend < tmax && h * b > hmax)
        next = hmax / 2;
    if (t < tmax && tend < tmax && h * a > hmax)
        next = hmax;
    return next;
}

static bool fixed_steps(TS ts)
{
    PetscBool none = PETSC_FALSE;
    if (ts->adapt == NULL || ts->event != NULL || ts->tspan != NULL)
        return false;
    if (PetscObjectTypeCompare((PetscObject)ts->adapt, TSADAPTNONE, &none))
        return false;
    return none == PETSC_TRUE && ts->time_step > 0 && ts->steps == 0 &&
           ts->exact_final_time != TS_EXACTFINALTIME_INTERPOLATE;
}

bool uturn__petsc_predict_steps(TS ts, uint64_t *steps)
{
    if (!fixed_steps(ts))
        return false;
    const bool match     = ts->exact_final_time == TS_EXACTFINALTIME_MATCHSTEP;
    const PetscReal tmax = ts->max_time;
    PetscReal t = ts->ptime, h = ts->time_step;
    uint64_t k = 0;
    while (k < (uint64_t)ts->max_steps && t < tmax) {
        if (k == MAX_PREDICTED)
            return false;
        const PetscReal next =
            match ? match_step(ts->adapt, t + h, h, tmax) : h;
        t += h;
        h = next;
        k++;
    }
    *steps = k;
    return k > 0;
}
