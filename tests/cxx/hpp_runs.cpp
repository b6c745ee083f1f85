// Runs through uturn.hpp: a lambda model with captures reaches the
// hand-written gradient bitwise (contiguous, save/load, per-step sizes;
// revolve, periodic, store-all), the counts observed are the plan's, a file
// level and a user level give the same gradient with the plan's per-level
// counts and leave nothing behind, progress callables are called, and a
// callback returning non-zero is a uturn::Error naming the step.
#include "hpp_check.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace hpp
{
namespace
{

constexpr std::uint64_t STATE = DIM * sizeof(double);

// The hand-written adjoint against central differences: the truth is true.
void reference_is_the_derivative()
{
    Chain c(30);
    const std::vector<double> grad = reference(c);
    for (int j = 0; j < DIM; j++) {
        double J[2];
        for (int s = 0; s < 2; s++) {
            std::vector<double> x = Chain(30).x, y(DIM);
            x[static_cast<std::size_t>(j)] += s == 0 ? 1e-6 : -1e-6;
            for (std::size_t i = 0; i < 30; i++) {
                step(x.data(), y.data(), c.coef[i]);
                x.swap(y);
            }
            J[s] = 0;
            for (double v : x)
                J[s] += 0.5 * v * v;
        }
        const double fd = (J[0] - J[1]) / 2e-6;
        HPP_CHECK(std::fabs(fd - grad[static_cast<std::size_t>(j)]) < 1e-6);
    }
}

void same_counts(const uturn::Stats &seen, const uturn::Stats &want)
{
    HPP_CHECK(seen.forward_steps == want.forward_steps);
    HPP_CHECK(seen.reverse_steps == want.reverse_steps);
    HPP_CHECK(seen.stores == want.stores);
    HPP_CHECK(seen.restores == want.restores);
    HPP_CHECK(seen.peak_slots == want.peak_slots);
}

// One run of `plan` with the lambda model; the gradient must be bitwise
// the reference.
void run_matches(uturn::Executor &ex, const uturn::Plan &plan, Chain &c,
                 bool save_load, bool sized)
{
    Faults f;
    const uturn::Model m = lambda_model(c, f, save_load, sized);
    uturn::Report rep;
    const uturn::Stats seen = ex.run(plan, m, uturn::RunOptions(), &rep);
    HPP_CHECK(std::memcmp(c.xbar.data(), reference(c).data(), STATE) == 0);
    same_counts(seen, plan.stats());
    HPP_CHECK(rep.status == UTURN_OK);
    HPP_CHECK(rep.measured_peak_bytes <= plan.stats().budget_bytes ||
              plan.stats().budget_bytes == 0);
    HPP_CHECK(f.calls[ADJOINT] == static_cast<int>(c.coef.size()));
}

void lambda_gradients()
{
    uturn::Executor ex;
    Chain c(120);
    uturn::Problem p;
    p.steps                   = 120;
    p.slot_bytes              = STATE;
    p.budget_bytes            = ex.budget(STATE, 6);
    const uturn::Plan revolve = ex.plan(p);
    HPP_CHECK(revolve.stats().slots == 6);
    run_matches(ex, revolve, c, false, false);
    run_matches(ex, revolve, c, true, false);
    run_matches(ex, revolve, c, true, true);
    uturn::Problem q;
    q.planner    = UTURN_PLANNER_PERIODIC;
    q.steps      = 120;
    q.stride     = 11;
    q.slot_bytes = STATE;
    run_matches(ex, ex.plan(q), c, false, false);
    q.planner = UTURN_PLANNER_STORE_ALL;
    q.stride  = 0;
    run_matches(ex, uturn::Plan(q), c, true, true);
}

// Memory and a disk level in files: hrevolve plans both, memory given in
// bytes and resolved at the real cost with the I/O buffers left out.
void file_level()
{
    const std::string dir = scratch();
    {
        uturn::ExecutorOptions o;
        o.levels.push_back(uturn::Storage::file(dir));
        uturn::Executor ex(o);
        HPP_CHECK(ex.level_count() == 1);
        const std::vector<uturn::Level> levels = {
            uturn::Level::of_bytes("mem", ex.budget(STATE, 4)),
            uturn::Level("disk", 5, 3, 3)};
        uturn::Problem p;
        p.planner    = UTURN_PLANNER_HREVOLVE;
        p.steps      = 80;
        p.slot_bytes = STATE;
        p.use_levels(levels);
        const uturn::Plan plan = ex.plan(p);
        HPP_CHECK(plan.stats().levels == 2);
        HPP_CHECK(plan.level_stats(0).slots == 2); /* 4 less 2 buffers */
        HPP_CHECK(std::string(plan.level_stats(1).name) == "disk");
        HPP_CHECK(plan.level_stats(1).stores > 0);
        Chain c(80);
        for (int again = 0; again < 2; again++) {
            run_matches(ex, plan, c, again == 1, false);
            for (std::uint64_t k = 0; k < 2; k++) {
                const uturn::LevelReport got = ex.level_report(k);
                const uturn::LevelStats want = plan.level_stats(k);
                HPP_CHECK(got.stores == want.stores);
                HPP_CHECK(got.restores == want.restores);
                HPP_CHECK(got.peak_slots == want.peak_slots);
            }
            HPP_CHECK(ex.level_report(1).bytes_written ==
                      plan.level_stats(1).stores * STATE);
            HPP_CHECK(entries(dir) == 0);
        }
        HPP_THROWS(ex.level_report(2), uturn::Error,
                   HPP_CHECK(e.status() == UTURN_E_INVALID_ARG));
    }
    HPP_CHECK(entries(dir) == 0);
    remove_all(dir);
}

// A level kept by lambdas in a std::map: same gradient, the plan's counts,
// every state dropped or closed away.
void user_level()
{
    Keeper k;
    Faults f;
    uturn::ExecutorOptions o;
    o.levels.push_back(uturn::Storage::user(keeper_storage(k, f)));
    uturn::Executor ex(o);
    uturn::Problem p;
    p.planner                              = UTURN_PLANNER_HREVOLVE;
    p.steps                                = 60;
    p.slot_bytes                           = STATE;
    const std::vector<uturn::Level> levels = {uturn::Level("mem", 2),
                                              uturn::Level("user", 6, 2, 2)};
    p.use_levels(levels);
    const uturn::Plan plan = ex.plan(p);
    Chain c(60);
    run_matches(ex, plan, c, false, false);
    HPP_CHECK(k.puts == plan.level_stats(1).stores);
    HPP_CHECK(k.gets == plan.level_stats(1).restores);
    HPP_CHECK(k.opens == 1 && k.closes == 1);
    HPP_CHECK(k.live() == 0);
    HPP_CHECK(ex.level_report(1).stores == k.puts);
}

void progress_callables()
{
    uturn::Executor ex;
    uturn::Problem p;
    p.steps      = 50;
    p.slots      = 4;
    p.slot_bytes = STATE;
    const uturn::Plan plan(p);
    Chain c(50);
    Faults f;
    const uturn::Model m = lambda_model(c, f, false);
    uturn::RunOptions o;
    std::uint64_t last_reversed = 0, calls = 0;
    uturn::Progress final_progress{};
    o.progress = [&](std::uint64_t reversed, std::uint64_t steps) {
        last_reversed = reversed;
        HPP_CHECK(steps == 50);
    };
    o.progress_every = 5;
    o.on_progress    = [&](const uturn::Progress &pr) {
        calls++;
        final_progress = pr;
        return 0;
    };
    ex.run(plan, m, o);
    HPP_CHECK(last_reversed == 50);
    HPP_CHECK(calls > 1);
    HPP_CHECK(final_progress.done == final_progress.total);
    HPP_CHECK(final_progress.reverse_steps == 50);
}

// An int callback that says "stop" without throwing: a uturn::Error.
void nonzero_is_an_error()
{
    uturn::Executor ex;
    uturn::Problem p;
    p.steps      = 20;
    p.slots      = 3;
    p.slot_bytes = STATE;
    const uturn::Plan plan(p);
    Chain c(20);
    Faults f;
    uturn::Model m = lambda_model(c, f, false);
    int calls      = 0;
    m.adjoint      = [&](std::uint64_t) { return ++calls == 4 ? 42 : 0; };
    uturn::Report rep;
    HPP_THROWS(ex.run(plan, m, uturn::RunOptions(), &rep), uturn::Error, {
        HPP_CHECK(e.status() == UTURN_E_CALLBACK);
        HPP_CHECK(std::string(e.name()) == "UTURN_E_CALLBACK");
        HPP_CHECK(e.step() == 16);
        HPP_CHECK(std::string(e.what()).find("the adjoint callback returned "
                                             "42 at step 16") !=
                  std::string::npos);
    });
    HPP_CHECK(rep.status == UTURN_E_CALLBACK && rep.failed_step == 16);
    HPP_CHECK(calls == 4);
    m.adjoint = std::function<void(std::uint64_t)>(); // empty: NULL in C
    HPP_CHECK(!m.adjoint);
    HPP_THROWS(ex.run(plan, m), uturn::Error,
               HPP_CHECK(e.status() == UTURN_E_INVALID_ARG));
}

// The several-sweeps problem of the checks below: 120 steps, 6 slots.
uturn::Problem sweeps_problem(std::uint64_t sweeps)
{
    uturn::Problem p;
    p.steps  = 120;
    p.slots  = 6;
    p.sweeps = sweeps;
    return p;
}

uturn::RunOptions on_request()
{
    uturn::RunOptions o;
    o.sweeps_on_request = true;
    return o;
}

// Several sweeps on request: each sweep's gradient is the reference bit
// for bit, the counts after the last are the plan's, and a fourth sweep
// or progress callables with sweeps on request are refused.
void sweeps_on_request()
{
    uturn::Executor ex;
    Chain c(120);
    const uturn::Plan plan(sweeps_problem(3));
    Faults f;
    const uturn::Model m = lambda_model(c, f, false, false);
    uturn::RunOptions o  = on_request();
    uturn::Report rep;
    ex.run(plan, m, o, &rep);
    HPP_CHECK(rep.trajectory_held && rep.sweeps_done == 1);
    HPP_CHECK(std::memcmp(c.xbar.data(), reference(c).data(), STATE) == 0);
    uturn::Stats seen;
    for (int j = 2; j <= 3; j++) {
        std::fill(c.xbar.begin(), c.xbar.end(), 0.0);
        seen = ex.sweep(m, &rep);
        HPP_CHECK(std::memcmp(c.xbar.data(), reference(c).data(), STATE) == 0);
        HPP_CHECK(rep.sweeps_done == static_cast<std::uint64_t>(j));
    }
    HPP_CHECK(!rep.trajectory_held);
    same_counts(seen, plan.stats());
    HPP_THROWS(ex.sweep(m), uturn::Error,
               HPP_CHECK(e.status() == UTURN_E_INVALID_ARG));
    o.on_progress = [](const uturn::Progress &) {};
    HPP_THROWS(ex.run(plan, m, o), std::invalid_argument, {});
    ex.release(); /* nothing held: a no-op */
}

// A further sweep's forward must be the run's: another lambda is refused
// naming the field, the trajectory kept; a copy of the run's Model, or the
// model made again from the same lambdas and captures, sweeps bitwise.
void further_sweeps_take_the_runs_forward()
{
    uturn::Executor ex;
    Chain c(120);
    const uturn::Plan plan(sweeps_problem(4));
    Faults f;
    const uturn::Model m = lambda_model(c, f, false, false);
    uturn::RunOptions o  = on_request();
    ex.run(plan, m, o);
    uturn::Model other = m;
    other.forward      = [&c](std::uint64_t i) { c.x[0] += 0 * double(i); };
    HPP_THROWS(ex.sweep(other), uturn::Error, {
        HPP_CHECK(e.status() == UTURN_E_INVALID_ARG);
        HPP_CHECK(std::strstr(e.what(), "model's forward is another") !=
                  nullptr);
    });
    other      = m;
    other.save = [](std::uint64_t, void *, std::uint64_t) {};
    HPP_THROWS(ex.sweep(other), uturn::Error,
               HPP_CHECK(std::strstr(e.what(), "model's save is") != nullptr));
    const uturn::Model copy = m; // a copy: the same callables
    uturn::Report rep;
    std::fill(c.xbar.begin(), c.xbar.end(), 0.0);
    ex.sweep(copy, &rep);
    HPP_CHECK(rep.sweeps_done == 2 && rep.trajectory_held);
    HPP_CHECK(std::memcmp(c.xbar.data(), reference(c).data(), STATE) == 0);
    Faults g; // made again: other captures (&g) are other callables
    HPP_THROWS(ex.sweep(lambda_model(c, g, false, false)), uturn::Error, {});
    std::fill(c.xbar.begin(), c.xbar.end(), 0.0);
    ex.sweep(lambda_model(c, f, false, false), &rep); // same captures
    HPP_CHECK(rep.sweeps_done == 3);
    HPP_CHECK(std::memcmp(c.xbar.data(), reference(c).data(), STATE) == 0);
}

// run() on a temporary Plan with sweeps on request keeps the plan for the
// sweeps to come (it had been freed with the temporary).
void a_temporary_plan_is_kept_for_its_sweeps()
{
    uturn::Executor ex;
    Chain c(120);
    const uturn::Problem p = sweeps_problem(3);
    Faults f;
    const uturn::Model m      = lambda_model(c, f, false, false);
    const uturn::RunOptions o = on_request();
    uturn::Report rep;
    ex.run(uturn::Plan(p), m, o, &rep);
    for (std::uint64_t j = 2; j <= 3; j++) {
        std::fill(c.xbar.begin(), c.xbar.end(), 0.0);
        ex.sweep(m, &rep);
        HPP_CHECK(rep.sweeps_done == j);
        HPP_CHECK(std::memcmp(c.xbar.data(), reference(c).data(), STATE) == 0);
    }
    HPP_CHECK(!rep.trajectory_held);
    ex.run(uturn::Plan(p), m, o, &rep); // the kept plan is replaced
    HPP_CHECK(rep.trajectory_held);
    ex.release();
}

// A durable run stopped at a point on request, then resumed by a run
// whose live state does not start at x_0: the gradient is the reference
// bit for bit; an exception thrown by save_adjoint comes out of run().
void durable_stop_and_resume()
{
    uturn::Executor ex;
    const std::string parent = scratch();
    const std::string dir    = parent + "/durable";
    uturn::Problem p;
    p.steps = 120;
    p.slots = 6;
    const uturn::Plan plan(p);
    volatile sig_atomic_t request = 0;
    for (int part = 0; part < 2; part++) {
        Chain c(120);
        Faults f;
        uturn::Model m = lambda_model(c, f, false);
        if (part == 1)
            std::fill(c.x.begin(), c.x.end(), 0.0); /* not x_0 */
        const auto forward  = m.forward;
        std::uint64_t steps = 0;
        m.forward           = [&, forward](std::uint64_t i) {
            forward(i);
            if (++steps == 50 && part == 0)
                request = UTURN_DURABLE_STOP;
        };
        m.adjoint_bytes = STATE;
        m.save_adjoint  = [&](void *dst, std::uint64_t bytes) {
            std::memcpy(dst, c.xbar.data(), bytes);
        };
        m.load_adjoint = [&](const void *src, std::uint64_t bytes) {
            std::memcpy(c.xbar.data(), src, bytes);
        };
        uturn::RunOptions o;
        o.durable_dir     = dir.c_str();
        o.durable_request = &request;
        o.durable_mode = part == 0 ? UTURN_DURABLE_NEW : UTURN_DURABLE_RESUME;
        uturn::Report rep;
        if (part == 0) {
            HPP_THROWS(ex.run(plan, m, o, &rep), uturn::Error,
                       HPP_CHECK(e.status() == UTURN_E_STOPPED));
            HPP_CHECK(rep.durable_points == 1 && steps == 50);
            continue;
        }
        ex.run(plan, m, o, &rep);
        HPP_CHECK(rep.resumed_forward_steps == 50);
        HPP_CHECK(std::memcmp(c.xbar.data(), reference(c).data(), STATE) == 0);
    }
    HPP_CHECK(entries(parent) == 0); /* the complete run removed it */
    Chain c(120);
    Faults f;
    uturn::Model m  = lambda_model(c, f, false);
    m.adjoint_bytes = STATE;
    m.save_adjoint  = [](void *, std::uint64_t) {
        throw Boom{"save_adjoint", 1};
    };
    m.load_adjoint = [](const void *, std::uint64_t) {};
    uturn::RunOptions o;
    o.durable_dir      = dir.c_str();
    o.durable_interval = 1e-9;
    HPP_THROWS(ex.run(plan, m, o), Boom, {});
    remove_all(parent);
}

} // namespace

void runs()
{
    reference_is_the_derivative();
    lambda_gradients();
    file_level();
    user_level();
    progress_callables();
    nonzero_is_an_error();
    sweeps_on_request();
    further_sweeps_take_the_runs_forward();
    a_temporary_plan_is_kept_for_its_sweeps();
    durable_stop_and_resume();
}

} // namespace hpp
