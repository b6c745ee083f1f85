// Exceptions across the C library: a callback that throws (forward in the
// first sweep and in a recomputation, turn, adjoint, save, load,
// state_size, both progress callbacks, a user level's open, put and get)
// stops the run; the exception comes out of run() with its original type
// and contents; no user code runs after the throw; the library has given
// back every block (a counting allocator) and every file; and the same
// executor then runs the same plan to the reference gradient. drop and
// close, which cannot stop a run, have their exception rethrown after it.
#include "hpp_check.h"

#include <cstring>
#include <stdexcept>

namespace hpp
{
namespace
{

constexpr std::uint64_t STATE = DIM * sizeof(double);
constexpr std::uint64_t STEPS = 40;

struct Rig {
    Counted counted;
    Keeper keeper;
    Faults faults; // the user level's: reset before each run
    uturn::Executor ex;
    uturn::Plan plan;
    std::uint64_t idle_blocks = 0; // the executor's own, after trim
    bool sized = false; // save/load models give state_size (no levels)

    explicit Rig(bool user_level);
};

Rig::Rig(bool user_level)
{
    uturn::ExecutorOptions o;
    o.alloc      = &counted.alloc;
    o.slot_alloc = &counted.alloc;
    if (user_level)
        o.levels.push_back(
            uturn::Storage::user(keeper_storage(keeper, faults)));
    ex = uturn::Executor(o);
    uturn::Problem p;
    p.steps                                = STEPS;
    p.slot_bytes                           = STATE;
    const std::vector<uturn::Level> levels = {uturn::Level("mem", 2),
                                              uturn::Level("user", 4, 1, 1)};
    if (user_level) {
        p.planner = UTURN_PLANNER_HREVOLVE;
        p.use_levels(levels);
    } else {
        p.slots = 4;
        sized   = true;
    }
    plan = uturn::Plan(p, &counted.alloc);
    HPP_CHECK(plan.stats().forward_steps > STEPS); /* it recomputes */
    idle_blocks = counted.counts.live_blocks;
}

// The options' callbacks tick too, so that they can throw.
uturn::RunOptions ticking_options(Faults &f)
{
    uturn::RunOptions o;
    o.progress = [&f](std::uint64_t, std::uint64_t) {
        f.tick("progress", PROGRESS);
    };
    o.progress_every = 4;
    o.on_progress    = [&f](const uturn::Progress &) {
        f.tick("on_progress", ON_PROGRESS);
    };
    o.on_progress_every = 7;
    return o;
}

// After any run: nothing held but the executor's own blocks, no state
// left in the user level, close called after every open.
void all_given_back(Rig &r)
{
    r.ex.trim();
    HPP_CHECK(r.counted.counts.live_blocks == r.idle_blocks);
    HPP_CHECK(r.ex.held_bytes() == 0);
    HPP_CHECK(r.keeper.live() == 0);
    HPP_CHECK(r.keeper.opens == r.keeper.closes);
}

// The same executor and plan, no fault: the reference gradient.
void runs_again(Rig &r, bool save_load)
{
    r.faults = Faults();
    Chain c(STEPS);
    Faults none;
    const uturn::Model m = lambda_model(c, none, save_load, r.sized);
    r.ex.run(r.plan, m, ticking_options(none));
    HPP_CHECK(std::memcmp(c.xbar.data(), reference(c).data(), STATE) == 0);
    all_given_back(r);
}

bool is_storage(const std::string &where)
{
    return where == "open" || where == "put" || where == "get" ||
           where == "drop" || where == "close";
}

void throw_at(Rig &r, const std::string &where, int at, bool save_load)
{
    Chain c(STEPS);
    Faults f;
    Faults &target       = is_storage(where) ? r.faults : f;
    r.faults             = Faults();
    target.where         = where;
    target.at            = at;
    const uturn::Model m = lambda_model(c, f, save_load, r.sized);
    bool caught          = false;
    try {
        r.ex.run(r.plan, m, ticking_options(f));
    } catch (const Boom &b) {
        caught = HPP_CHECK(b.where == where && b.call == at);
    }
    if (!HPP_CHECK(caught && target.thrown))
        std::fprintf(stderr, "  (%s at call %d)\n", where.c_str(), at);
    HPP_CHECK(f.after_throw == 0 && r.faults.after_throw == 0);
    all_given_back(r);
    runs_again(r, save_load);
}

void model_callbacks()
{
    Rig r(false);
    for (int at : {1, 5, 40, 41, 60}) /* 41 on: recomputations */
        throw_at(r, "forward", at, false);
    throw_at(r, "turn", 1, false);
    for (int at : {1, 20, 40})
        throw_at(r, "adjoint", at, false);
    for (int at : {1, 3})
        throw_at(r, "save", at, true);
    for (int at : {1, 2})
        throw_at(r, "load", at, true);
    for (int at : {1, 7})
        throw_at(r, "state_size", at, true);
    for (int at : {1, 3})
        throw_at(r, "progress", at, false);
    for (int at : {1, 4})
        throw_at(r, "on_progress", at, false);
}

void storage_callbacks()
{
    Rig r(true);
    HPP_CHECK(r.plan.level_stats(1).stores >= 3);
    throw_at(r, "open", 1, false);
    for (int at : {1, 3})
        throw_at(r, "put", at, false);
    for (int at : {1, 2})
        throw_at(r, "get", at, true);
    throw_at(r, "forward", 30, false);
    throw_at(r, "adjoint", 10, true);
    throw_at(r, "drop", 1, false);
    throw_at(r, "close", 1, false);
}

// Types other than Boom: a std::exception keeps its type and text, and
// anything at all (an int) comes back as thrown.
void other_types()
{
    Rig r(false);
    Chain c(STEPS);
    Faults f;
    uturn::Model m = lambda_model(c, f, false);
    m.adjoint      = [](std::uint64_t i) {
        if (i == 17)
            throw std::out_of_range("step 17 is out of range");
    };
    HPP_THROWS(r.ex.run(r.plan, m), std::out_of_range,
               HPP_CHECK(std::string(e.what()) == "step 17 is out of range"));
    all_given_back(r);
    m      = lambda_model(c, f, true);
    m.save = [](std::uint64_t, void *, std::uint64_t) -> int { throw 7; };
    HPP_THROWS(r.ex.run(r.plan, m), int, HPP_CHECK(e == 7));
    all_given_back(r);
    runs_again(r, false);
}

// A file level: an exception mid-run leaves no file behind.
void file_level()
{
    const std::string dir = scratch();
    {
        uturn::ExecutorOptions o;
        o.levels.push_back(uturn::Storage::file(dir));
        o.levels.push_back(uturn::Storage::file(dir, true));
        uturn::Executor ex(o);
        uturn::Problem p;
        p.planner                              = UTURN_PLANNER_HREVOLVE;
        p.steps                                = 50;
        p.slot_bytes                           = STATE;
        const std::vector<uturn::Level> levels = {uturn::Level("mem", 2),
                                                  uturn::Level("disk", 3, 2, 2),
                                                  uturn::Level("far", 6, 5, 5)};
        p.use_levels(levels);
        const uturn::Plan plan = ex.plan(p);
        for (int at : {1, 9, 30}) {
            Chain c(50);
            Faults f{"adjoint", at};
            const uturn::Model m = lambda_model(c, f, at == 9);
            HPP_THROWS(ex.run(plan, m), Boom, HPP_CHECK(e.call == at));
            HPP_CHECK(entries(dir) == 0);
            Faults none;
            const uturn::Model ok = lambda_model(c, none, false);
            ex.run(plan, ok);
            HPP_CHECK(std::memcmp(c.xbar.data(), reference(c).data(), STATE) ==
                      0);
        }
    }
    HPP_CHECK(entries(dir) == 0);
    remove_all(dir);
}

} // namespace

void throws()
{
    model_callbacks();
    storage_callbacks();
    other_types();
    file_level();
}

} // namespace hpp
