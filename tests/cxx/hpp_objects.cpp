// The objects of uturn.hpp without a model: a range-for over a plan's
// actions is the C cursor's stream (every planner, across batch
// boundaries, mixed with next() and read()); handles move and free as
// they should; plan text round-trips through write/parse and the streaming
// reader; fingerprints, level stats, validators, budget and capacity
// helpers agree with the C calls; failures are uturn::Error with the
// uturn_error_t fields.
#include "hpp_check.h"

#include <cstring>
#include <type_traits>

namespace hpp
{
namespace
{

constexpr std::uint64_t STATE = 56;

uturn::Problem problem(uturn_planner_t planner, std::uint64_t steps,
                       std::uint64_t slots)
{
    uturn::Problem p;
    p.planner    = planner;
    p.steps      = steps;
    p.slots      = slots;
    p.slot_bytes = STATE;
    return p;
}

std::vector<uturn::Plan> some_plans()
{
    std::vector<uturn::Plan> plans;
    plans.emplace_back(problem(UTURN_PLANNER_REVOLVE, 10000, 10));
    plans.emplace_back(problem(UTURN_PLANNER_REVOLVE, 3, 1));
    plans.emplace_back(problem(UTURN_PLANNER_STORE_ALL, 700, 0));
    plans.emplace_back(problem(UTURN_PLANNER_SQRT, 1000, 0));
    plans.emplace_back(problem(UTURN_PLANNER_PERIODIC, 500, 60));
    plans.emplace_back(problem(UTURN_PLANNER_DP, 90, 6));
    uturn::Problem h = problem(UTURN_PLANNER_HREVOLVE, 300, 0);
    const std::vector<uturn::Level> levels = {uturn::Level("mem", 3),
                                              uturn::Level("disk", 8, 2, 2)};
    h.use_levels(levels);
    plans.emplace_back(h);
    plans.push_back(uturn::Plan::parse(plans[1].text()));
    return plans;
}

void range_is_the_c_stream()
{
    for (const uturn::Plan &plan : some_plans()) {
        const std::vector<uturn::Action> want = c_stream(plan);
        std::vector<uturn::Action> got;
        for (const uturn::Action &a : plan.actions())
            got.push_back(a);
        HPP_CHECK(!want.empty() && same(got, want));
        HPP_CHECK(got.size() == plan.stats().actions);
        // next(), read() and the range on one cursor, in turns.
        uturn::Cursor c = plan.actions();
        std::vector<uturn::Action> mixed;
        uturn::Action a{};
        uturn::Action buf[3];
        while (c.next(a)) {
            mixed.push_back(a);
            const std::size_t n = c.read(buf, 3);
            mixed.insert(mixed.end(), buf, buf + n);
            for (const uturn::Action &b : c) {
                mixed.push_back(b);
                if (mixed.size() % 300 == 0)
                    break;
            }
        }
        HPP_CHECK(same(mixed, want));
        HPP_CHECK(!c.next(a) && c.read(buf, 3) == 0 && c.begin() == c.end());
    }
}

// A cursor moved mid-stream goes on where it was.
void cursor_moves(const uturn::Plan &plan)
{
    const std::vector<uturn::Action> want = c_stream(plan);
    uturn::Cursor first                   = plan.actions();
    std::vector<uturn::Action> got;
    uturn::Action x{};
    for (int i = 0; i < 10 && first.next(x); i++)
        got.push_back(x);
    uturn::Cursor second = std::move(first);
    HPP_CHECK(!first && second);
    HPP_THROWS(first.next(x), uturn::Error, {
        HPP_CHECK(e.status() == UTURN_E_INVALID_ARG);
        HPP_CHECK(std::string(e.what()) == "the cursor is empty");
    });
    for (int i = 0; i < 10 && second.next(x); i++)
        got.push_back(x);
    first = std::move(second); /* and back, by assignment */
    for (const uturn::Action &y : first)
        got.push_back(y);
    HPP_CHECK(same(got, want));
}

void moves()
{
    static_assert(!std::is_copy_constructible_v<uturn::Plan>);
    static_assert(!std::is_copy_assignable_v<uturn::Cursor>);
    static_assert(!std::is_copy_constructible_v<uturn::Executor>);
    static_assert(!std::is_copy_constructible_v<uturn::Validator>);
    static_assert(!std::is_copy_constructible_v<uturn::Reader>);
    static_assert(std::is_nothrow_move_constructible_v<uturn::Plan>);
    static_assert(std::is_nothrow_move_assignable_v<uturn::Cursor>);
    static_assert(std::is_nothrow_move_assignable_v<uturn::Executor>);
    Counted counted;
    uturn::Plan a(problem(UTURN_PLANNER_REVOLVE, 100, 5), &counted.alloc);
    const std::uint64_t one_plan = counted.counts.live_blocks;
    HPP_CHECK(one_plan > 0);
    uturn::Plan b(std::move(a));
    HPP_CHECK(!a && b && b.stats().forward_steps == 320);
    HPP_THROWS(a.stats(), uturn::Error,
               HPP_CHECK(e.status() == UTURN_E_INVALID_ARG));
    HPP_THROWS(uturn::Cursor{a}, uturn::Error,
               HPP_CHECK(e.status() == UTURN_E_INVALID_ARG));
    uturn::Plan c(problem(UTURN_PLANNER_REVOLVE, 100, 5), &counted.alloc);
    HPP_CHECK(counted.counts.live_blocks == 2 * one_plan);
    c = std::move(b); /* c's first plan is freed */
    HPP_CHECK(counted.counts.live_blocks == one_plan);
    cursor_moves(c);
    HPP_CHECK(counted.counts.live_blocks == one_plan); /* cursors freed */
    {
        uturn::Plan gone = std::move(c);
    }
    HPP_CHECK(counted.counts.live_blocks == 0);
}

// An executor with a user level, moved twice (construction, assignment
// over another executor with a level of its own): its callables go along.
void executor_moves()
{
    Keeper k1, k2;
    Faults f1, f2;
    uturn::ExecutorOptions o1, o2;
    o1.levels.push_back(uturn::Storage::user(keeper_storage(k1, f1)));
    o2.levels.push_back(uturn::Storage::user(keeper_storage(k2, f2)));
    uturn::Executor ex1(o1);
    uturn::Executor moved(std::move(ex1));
    HPP_CHECK(!ex1 && moved && moved.level_count() == 1);
    uturn::Executor other(o2);
    other            = std::move(moved);
    uturn::Problem p = problem(UTURN_PLANNER_HREVOLVE, 30, 0);
    const std::vector<uturn::Level> levels = {uturn::Level("mem", 1),
                                              uturn::Level("user", 4, 1, 1)};
    p.use_levels(levels);
    const uturn::Plan plan = other.plan(p);
    Chain c(30);
    Faults none;
    other.run(plan, lambda_model(c, none, false));
    HPP_CHECK(std::memcmp(c.xbar.data(), reference(c).data(), STATE) == 0);
    HPP_CHECK(k1.puts == plan.level_stats(1).stores && k2.puts == 0);
    HPP_THROWS(ex1.run(plan, lambda_model(c, none, false)), uturn::Error, {
        HPP_CHECK(e.status() == UTURN_E_INVALID_ARG);
        HPP_CHECK(std::string(e.what()) == "the executor is empty");
    });
    HPP_THROWS(ex1.plan(p), uturn::Error,
               HPP_CHECK(e.status() == UTURN_E_INVALID_ARG));
    uturn::Validator none_yet;
    HPP_THROWS(none_yet.finish(), uturn::Error,
               HPP_CHECK(e.status() == UTURN_E_INVALID_ARG));
}

void text_round_trip()
{
    const uturn::Plan plan(problem(UTURN_PLANNER_REVOLVE, 200, 7));
    const std::string text = plan.text();
    HPP_CHECK(text.rfind("uturn-plan ", 0) == 0);
    const uturn::Plan back = uturn::Plan::parse(text);
    HPP_CHECK(same(c_stream(back), c_stream(plan)));
    HPP_CHECK(back.stats().forward_steps == plan.stats().forward_steps);
    HPP_CHECK(back.stats().peak_slots == plan.stats().peak_slots);
    uturn::Reader reader;
    for (std::size_t at = 0; at < text.size(); at += 7)
        reader.feed(std::string_view(text).substr(at, 7));
    const uturn::Stats seen = reader.finish();
    HPP_CHECK(seen.actions == plan.stats().actions);
    HPP_CHECK(seen.stores == plan.stats().stores);
    const std::string broken = "uturn-plan 1\nsteps 2\nslots 1\nadvance 0 x\n";
    HPP_THROWS(uturn::Plan::parse(broken), uturn::Error, {
        HPP_CHECK(e.status() == UTURN_E_PARSE);
        HPP_CHECK(e.line() == 4);
    });
    uturn::Reader bad;
    HPP_THROWS(bad.feed(broken), uturn::Error,
               HPP_CHECK(e.status() == UTURN_E_PARSE && e.line() == 4));
    std::FILE *f = std::tmpfile();
    plan.write(f);
    HPP_CHECK(std::ftell(f) == static_cast<long>(text.size()));
    std::fclose(f);
}

void fingerprints_and_stats()
{
    const uturn::Plan a(problem(UTURN_PLANNER_REVOLVE, 100, 10));
    const uturn::Plan b(problem(UTURN_PLANNER_REVOLVE, 100, 10));
    const uturn::Plan c(problem(UTURN_PLANNER_REVOLVE, 100, 5));
    HPP_CHECK(a.fingerprint() == a.stats().fingerprint);
    HPP_CHECK(a.fingerprint() == b.fingerprint());
    HPP_CHECK(a.fingerprint() != c.fingerprint());
    std::uint64_t raw = 0;
    uturn_plan_fingerprint(a.get(), &raw);
    HPP_CHECK(raw == a.fingerprint());
    HPP_CHECK(a.stats().forward_steps == 225 && c.stats().forward_steps == 320);
    HPP_CHECK(a.walk().forward_steps == 225);
    HPP_CHECK(a.problem().slots == 10 && a.problem().steps == 100);
    const uturn::LevelStats mem = a.level_stats(0);
    HPP_CHECK(mem.stores == a.stats().stores && mem.slots == 10);
    HPP_THROWS(a.level_stats(1), uturn::Error,
               HPP_CHECK(e.status() == UTURN_E_INVALID_ARG));
}

void validators()
{
    const uturn::Plan plan(problem(UTURN_PLANNER_REVOLVE, 60, 4));
    uturn::Validator v(problem(UTURN_PLANNER_REVOLVE, 60, 4));
    for (const uturn::Action &a : plan.actions())
        v.push(a);
    const uturn::Stats seen = v.finish();
    HPP_CHECK(seen.forward_steps == plan.stats().forward_steps);
    HPP_CHECK(v.level_stats(0).stores == plan.stats().stores);
    uturn::Validator w(problem(UTURN_PLANNER_REVOLVE, 60, 4));
    uturn::Action restore{};
    restore.op   = UTURN_OP_RESTORE;
    restore.step = 3;
    HPP_THROWS(w.push(restore), uturn::Error, {
        HPP_CHECK(e.status() == UTURN_E_INVALID_PLAN);
        HPP_CHECK(e.action() == 0);
    });
    HPP_CHECK(uturn::to_string(restore) == "restore 3 0");
    uturn::Action unknown{};
    unknown.op = static_cast<uturn_op_t>(0);
    HPP_THROWS(uturn::to_string(unknown), uturn::Error, {
        HPP_CHECK(e.status() == UTURN_E_INVALID_ARG);
        HPP_CHECK(std::string(e.what()) ==
                  "uturn_action_format: invalid argument");
    });
}

void errors()
{
    uturn::Problem p = problem(UTURN_PLANNER_REVOLVE, 100, 0);
    HPP_THROWS(uturn::Plan{p}, uturn::Error, {
        HPP_CHECK(e.status() == UTURN_E_INVALID_ARG);
        HPP_CHECK(std::string(e.what()).find("capacity") != std::string::npos);
        HPP_CHECK(std::strcmp(e.detail().message, e.what()) == 0);
    });
    p.slot_bytes   = 1024;
    p.budget_bytes = 1000;
    HPP_THROWS(uturn::Plan{p}, uturn::Error, {
        HPP_CHECK(e.status() == UTURN_E_INFEASIBLE);
        HPP_CHECK(e.minimum_bytes() == 1024 && e.minimum_slots() == 1);
    });
    HPP_CHECK(uturn::planner_from_name("hrevolve") == UTURN_PLANNER_HREVOLVE);
    HPP_THROWS(uturn::planner_from_name("nope"), uturn::Error,
               HPP_CHECK(std::string(e.what()) == "unknown planner \"nope\""));
    const uturn::Error own(UTURN_E_NOMEM, nullptr);
    HPP_CHECK(std::string(own.what()) == uturn_strerror(UTURN_E_NOMEM));
    HPP_CHECK(own.step() == UTURN_NONE && own.line() == 0);
    HPP_CHECK(std::string(uturn::version()) == UTURN_VERSION_STRING);
}

void budgets()
{
    uturn::Executor ex;
    for (std::uint64_t bytes : {STATE, std::uint64_t{4096}, std::uint64_t{1}})
        for (std::uint64_t k : {1u, 2u, 9u, 1000u}) {
            const std::uint64_t b = ex.budget(bytes, k);
            HPP_CHECK(ex.capacity(bytes, b) >= k);
            HPP_CHECK(ex.capacity(bytes, b - 1) < k);
        }
    const uturn::SlotCost cost = ex.slot_cost(STATE);
    HPP_CHECK(cost.stride == ex.slot_bytes(STATE) && cost.stride == 64);
    HPP_CHECK(cost.state_bytes == STATE && cost.backend != nullptr);
    HPP_THROWS(ex.slot_bytes(0), uturn::Error,
               HPP_CHECK(e.status() == UTURN_E_INVALID_ARG));
    uturn::Problem p = problem(UTURN_PLANNER_REVOLVE, 100, 0);
    p.budget_bytes   = ex.budget(STATE, 5);
    HPP_CHECK(ex.plan(p).stats().slots == 5);
    HPP_CHECK(ex.held_bytes() == 0);
}

// Cursor::end_sweep is for online plans; elsewhere it says why not.
void end_sweep_refused()
{
    const uturn::Plan plan(problem(UTURN_PLANNER_REVOLVE, 50, 3));
    uturn::Cursor c = plan.actions();
    uturn::Action a{};
    HPP_CHECK(c.next(a)); /* a batch is read: more actions wait */
    HPP_THROWS(c.end_sweep(), uturn::Error, {
        HPP_CHECK(e.status() == UTURN_E_INVALID_ARG);
        HPP_CHECK(std::string(e.what()).find("actions are still waiting") !=
                  std::string::npos);
    });
    while (c.next(a)) {
    }
    HPP_THROWS(c.end_sweep(), uturn::Error,
               HPP_CHECK(e.status() == UTURN_E_UNSUPPORTED));
    HPP_THROWS(c.stats(), uturn::Error,
               HPP_CHECK(e.status() == UTURN_E_UNSUPPORTED));
}

void plain_forward(std::uint64_t)
{
}

void other_forward(std::uint64_t)
{
}

// A function's name or pointer is a callback (it had been a compile error
// with same_as's identity, and a -Waddress warning before); same_as tells
// the same function from another, and copies and lambdas as documented.
void callbacks_know_their_callable()
{
    uturn::Model m;
    m.forward      = plain_forward;
    uturn::Model n = m; // a copy
    HPP_CHECK(m.forward.same_as(n.forward));
    n.forward = &plain_forward; // the same function, made again
    HPP_CHECK(m.forward.same_as(n.forward));
    n.forward = other_forward;
    HPP_CHECK(!m.forward.same_as(n.forward));
    int a = 0, b = 0;
    auto by_ref = [](int *x) { return [x](std::uint64_t) { *x += 1; }; };
    m.forward   = by_ref(&a);
    n.forward   = by_ref(&a); // same type, same capture
    HPP_CHECK(m.forward.same_as(n.forward));
    n.forward = by_ref(&b); // same type, another capture
    HPP_CHECK(!m.forward.same_as(n.forward));
    n.forward = nullptr;
    HPP_CHECK(!m.forward.same_as(n.forward));
    m.forward = nullptr;
    HPP_CHECK(m.forward.same_as(n.forward)); // both empty
}

} // namespace

void objects()
{
    callbacks_know_their_callable();
    range_is_the_c_stream();
    moves();
    executor_moves();
    text_round_trip();
    fingerprints_and_stats();
    validators();
    errors();
    budgets();
    end_sweep_refused();
}

} // namespace hpp
