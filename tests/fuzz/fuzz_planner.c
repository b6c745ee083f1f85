/*
 * libFuzzer target: every planner that knows its steps, from problems
 * decoded from the input. Byte 0 picks the part (its value modulo 5; the
 * inputs before part 3 existed used 0, 1 and 2 only, those before part 4
 * 0 to 3):
 *   0  store-all, periodic, sqrt, revolve (fuzz_planner_uniform.c);
 *   1  dp (fuzz_planner_dp.c);
 *   2  hrevolve and storage levels on every planner
 *      (fuzz_planner_levels.c);
 *   3  several reverse sweeps (fuzz_planner_sweeps.c);
 *   4  several sweeps on storage levels (fuzz_planner_sweeps_levels.c).
 * Each part checks uturn_plan_create() against an oracle of its own,
 * written from docs/model.md and uturn.h (see each file's header); the
 * rest of the input is the part's. Inputs found before the parts existed
 * (the .bin files of tests/fuzz/crashes, the seeds) were problems of part 0 and
 * carry a leading 0 byte.
 */
#include "fuzz_planner.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct reader r = {data, size, 0};
    switch (fz_byte(&r) % 5) {
    case 0:
        fz_planner_uniform(&r);
        break;
    case 1:
        fz_planner_dp(&r);
        break;
    case 2:
        fz_planner_levels(&r);
        break;
    case 3:
        fz_planner_sweeps(&r);
        break;
    default:
        fz_planner_sweeps_levels(&r);
        break;
    }
    return 0;
}
