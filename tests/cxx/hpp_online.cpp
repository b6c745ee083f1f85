// uturn.hpp with online plans: a lambda is_last ends the run where the
// model says (the gradient is the hand-written one), an exception from
// is_last or forward_record comes out of run(), records come back on
// recomputation, a range-for over a cursor can end the sweep, and the
// level slots an executor resolves are what its plans get, and a cursor
// whose state's size never came throws rather than end without a turn.
#include "hpp_check.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

namespace
{

double f(double x, std::uint64_t i)
{
    return x + 0.01 * std::sin(x + 0.1 * double(i));
}

double fbar(double x, std::uint64_t i)
{
    return 1 + 0.01 * std::cos(x + 0.1 * double(i));
}

// Every state kept, the adjoint by hand.
double truth(std::uint64_t n)
{
    std::vector<double> xs(n + 1);
    xs[0] = 0.3;
    for (std::uint64_t i = 0; i < n; i++)
        xs[i + 1] = f(xs[i], i);
    double b = 1;
    for (std::uint64_t i = n; i-- > 0;)
        b *= fbar(xs[i], i);
    return b;
}

uturn::Problem online_problem()
{
    uturn::Problem p;
    p.planner    = UTURN_PLANNER_ONLINE;
    p.steps      = 0;
    p.slots      = 5;
    p.slot_bytes = 8;
    return p;
}

struct chain {
    double x = 0.3, xb = 0;
    std::uint64_t n = 73;
    int last_calls  = 0;
    bool throw_last = false;
};

uturn::Model model_of(chain &c)
{
    uturn::Model m;
    m.set_state(&c.x, 1);
    m.forward = [&c](std::uint64_t i) { c.x = f(c.x, i); };
    m.turn    = [&c] { c.xb = 1; };
    m.adjoint = [&c](std::uint64_t i) { c.xb *= fbar(c.x, i); };
    m.is_last = [&c](std::uint64_t step) {
        c.last_calls++;
        if (c.throw_last && step == 20)
            throw std::logic_error("last?");
        return step == c.n;
    };
    return m;
}

void ends_where_the_model_says(uturn::Executor &ex, const uturn::Plan &plan)
{
    chain c;
    uturn::Model m = model_of(c);
    uturn::Report rep;
    ex.run(plan, m, uturn::RunOptions(), &rep);
    HPP_CHECK(rep.steps == 73);
    HPP_CHECK(c.xb == truth(73));
    c.throw_last     = true;
    c.x              = 0.3;
    const int before = c.last_calls;
    HPP_THROWS(ex.run(plan, m), std::logic_error,
               HPP_CHECK(std::string(e.what()) == "last?"));
    HPP_CHECK(c.last_calls - before == 20);
    c.throw_last = false;
    c.x          = 0.3;
    c.n          = 40;
    ex.run(plan, m);
    HPP_CHECK(c.xb == truth(40));
}

void records_come_back(uturn::Executor &ex, const uturn::Plan &plan)
{
    chain c;
    c.n              = 40;
    uturn::Model m   = model_of(c);
    m.forward        = nullptr;
    m.record_bytes   = 8;
    int mismatches   = 0;
    bool throw_rec   = false;
    m.forward_record = [&](std::uint64_t i, void *rec, bool again) {
        if (throw_rec && again)
            throw 5;
        double r = 0.1 * double(i);
        if (again) {
            std::memcpy(&r, rec, 8);
            mismatches += r != 0.1 * double(i);
        } else {
            std::memcpy(rec, &r, 8);
        }
        c.x = f(c.x, i);
    };
    ex.run(plan, m);
    HPP_CHECK(c.xb == truth(40));
    HPP_CHECK(mismatches == 0);
    throw_rec = true;
    c.x       = 0.3;
    HPP_THROWS(ex.run(plan, m), int, HPP_CHECK(e == 5));
}

void a_range_for_ends_the_sweep(const uturn::Plan &plan)
{
    uturn::Cursor c = plan.actions();
    uturn::Validator v(online_problem());
    for (const uturn::Action &a : c) {
        if (a.op == UTURN_OP_TURN)
            v.set_steps(50);
        v.push(a);
        if (a.op == UTURN_OP_ADVANCE && a.step_end == 50 &&
            c.stats().steps == UTURN_NONE)
            c.end_sweep();
    }
    const uturn::Stats seen = v.finish();
    HPP_CHECK(seen.reverse_steps == 50);
    HPP_CHECK(c.stats().steps == 50);
    HPP_CHECK(c.stats().forward_steps == seen.forward_steps);
}

void level_slots_are_what_plans_get()
{
    uturn::ExecutorOptions o;
    o.levels.push_back(uturn::Storage::file());
    uturn::Executor ex(o);
    uturn::Level lv[2];
    lv[0].bytes      = ex.budget(100, 7); /* 5 slots and 2 I/O buffers */
    lv[1].slots      = 30;
    lv[1].write_cost = lv[1].read_cost = 2;
    uturn::Problem p;
    p.planner     = UTURN_PLANNER_HREVOLVE;
    p.steps       = 60;
    p.slot_bytes  = 100;
    p.levels      = lv;
    p.level_count = 2;
    HPP_CHECK(ex.level_slots(p, 0) == 5);
    HPP_CHECK(ex.level_slots(p, 1) == 30);
    HPP_THROWS(ex.level_slots(p, 2), uturn::Error,
               HPP_CHECK(e.status() == UTURN_E_INVALID_ARG));
    const uturn::Plan plan = ex.plan(p);
    HPP_CHECK(plan.level_stats(0).slots == 5);
}

// A bytes-mode cursor whose next state's size never came: next() throws
// (UTURN_E_INVALID_ARG) rather than end the plan without a turn, and so
// does every later call.
void a_size_never_given_throws()
{
    uturn::Problem p;
    p.planner      = UTURN_PLANNER_ONLINE;
    p.steps        = 0;
    p.budget_bytes = 1000 * 8;
    const uturn::Plan plan(p);
    uturn::Cursor c(plan);
    c.set_size(0, 8);
    uturn::Action a;
    HPP_CHECK(c.next(a) && a.op == UTURN_OP_STORE);
    HPP_CHECK(c.next(a) && a.op == UTURN_OP_ADVANCE);
    for (int i = 0; i < 2; i++)
        HPP_THROWS(c.next(a), uturn::Error,
                   HPP_CHECK(e.status() == UTURN_E_INVALID_ARG));
}

} // namespace

namespace hpp
{

void online()
{
    uturn::Executor ex;
    const uturn::Plan plan = ex.plan(online_problem());
    HPP_CHECK(plan.stats().online);
    ends_where_the_model_says(ex, plan);
    records_come_back(ex, plan);
    a_range_for_ends_the_sweep(plan);
    level_slots_are_what_plans_get();
    a_size_never_given_throws();
}

} // namespace hpp
