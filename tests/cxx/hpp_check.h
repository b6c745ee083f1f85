// The uturn.hpp test's shared parts: checks that count failures (a plain
// program: main returns non-zero when any failed), a counting allocator,
// scratch directories, and the model every run uses with its independent
// truth (every state kept, the adjoint written out by hand).
#ifndef UTURN_HPP_CHECK_H_INCLUDED
#define UTURN_HPP_CHECK_H_INCLUDED

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <uturn.hpp>
#include <vector>

extern "C" {
#include "counting_alloc.h"
}

namespace hpp
{

// Failed checks so far.
extern int failures;

// Record a failed check at file:line (when ok is false); returns ok.
bool check(bool ok, const char *expr, const char *file, int line);

#define HPP_CHECK(cond)                                                        \
    ::hpp::check(static_cast<bool>(cond), #cond, __FILE__, __LINE__)

// The expression must throw T; `body` then runs with `e` bound to it.
#define HPP_THROWS(expr, T, body)                                              \
    do {                                                                       \
        bool hpp_thrown_ = false;                                              \
        try {                                                                  \
            expr;                                                              \
        } catch (T & e) {                                                      \
            hpp_thrown_ = true;                                                \
            body;                                                              \
        }                                                                      \
        ::hpp::check(hpp_thrown_, #expr " throws " #T, __FILE__, __LINE__);    \
    } while (0)

// A thrown type that is not a std::exception: it must come out of a run
// exactly as it went in.
struct Boom {
    std::string where;
    int call;
};

// Every callback of the model and of a user level counts its calls; the
// one named `where` throws Boom at call `at`.
struct Faults {
    std::string where;
    int at          = 0;
    int calls[16]   = {};
    int after_throw = 0; // calls after the throw, drop and close aside
    bool thrown     = false;

    void tick(const char *name, int index);
};

// Indices into Faults::calls.
enum Hook {
    FORWARD,
    TURN,
    ADJOINT,
    SAVE,
    LOAD,
    SIZE,
    PROGRESS,
    ON_PROGRESS,
    OPEN,
    PUT,
    GET,
    DROP,
    CLOSE
};

// The chain: DIM values, x_{i+1} = F(x_i, c_i) with a coefficient per step,
// J = |x_n|^2 / 2.
constexpr int DIM = 7; // 56 bytes: not a multiple of 16

struct Chain {
    std::vector<double> coef; // c_i, captured by the lambdas
    std::vector<double> x, xbar;
    double J = 0;

    explicit Chain(std::uint64_t steps);
    void start();
};

void step(const double *in, double *out, double c);
void step_bar(const double *in, const double *obar, double *ibar, double c);

// dJ/dx_0 from every state kept and reversed by hand (no uturn at all).
std::vector<double> reference(const Chain &chain);

// A uturn::Model of lambdas capturing `chain` and `faults`: contiguous
// state, or save/load (with state_size when sized).
uturn::Model lambda_model(Chain &chain, Faults &faults, bool save_load,
                          bool sized = false);

// A user storage level keeping states in a map, ticking `faults`.
struct Keeper;
uturn::UserStorage keeper_storage(Keeper &keeper, Faults &faults);
struct Keeper {
    std::map<std::uint64_t, std::vector<unsigned char>> held; // by id
    std::uint64_t opens = 0, closes = 0, puts = 0, gets = 0, drops = 0;
    std::uint64_t live() const;
};

// A counting allocator for the C objects.
struct Counted {
    counting_alloc_t counts{};
    uturn_allocator_t alloc{};
    Counted() : alloc(counting_allocator(&counts))
    {
    }
};

// A fresh directory under /tmp, its entry count, its removal.
std::string scratch();
int entries(const std::string &dir);
void remove_all(const std::string &dir);

// The C cursor's stream: the truth for the wrapper's range.
std::vector<uturn::Action> c_stream(const uturn::Plan &plan);
bool same(const std::vector<uturn::Action> &a,
          const std::vector<uturn::Action> &b);

// The groups of checks (hpp_runs.cpp, hpp_throws.cpp, hpp_objects.cpp).
void runs();
void throws();
void objects();
void online();

} // namespace hpp

#endif
