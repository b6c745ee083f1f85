// A C++ consumer of <uturn.hpp>: RAII owners, lambdas with captures as
// callbacks, failures as exceptions. Four independent chains
// x_{i+1} = x_i / (1 + h_k x_i) share one std::vector state; with
// J = sum_k x_{n,k} the gradient is dJ/dx_{0,k} = 1 / (1 + n h_k x_{0,k})^2.
// Revolve within a budget of 10 slots; an exception thrown by the adjoint
// stops the first run and comes out of run(), and the executor runs again.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <uturn.hpp>
#include <vector>

struct Chains {
    std::vector<double> h, x, xbar;
    std::uint64_t fail_at = UTURN_NONE; // the adjoint step that throws
};

static uturn::Model chains_model(Chains &c)
{
    uturn::Model m;
    m.set_state(c.x); // contiguous: copied with memcpy
    m.forward = [&c](std::uint64_t) {
        for (std::size_t k = 0; k < c.x.size(); k++)
            c.x[k] /= 1.0 + c.h[k] * c.x[k];
    };
    m.turn    = [&c] { std::fill(c.xbar.begin(), c.xbar.end(), 1.0); };
    m.adjoint = [&c](std::uint64_t step) {
        if (step == c.fail_at)
            throw std::runtime_error("adjoint step " + std::to_string(step));
        for (std::size_t k = 0; k < c.x.size(); k++) {
            const double s = 1.0 + c.h[k] * c.x[k];
            c.xbar[k] /= s * s;
        }
    };
    return m;
}

int main()
{
    const std::uint64_t steps    = 800;
    const std::vector<double> x0 = {1.0, 0.75, 4.0, 1.0};
    Chains c{{0.01, 0.02, 0.005, 0.03}, x0, std::vector<double>(4)};
    const std::uint64_t bytes = x0.size() * sizeof(double);
    try {
        uturn::Executor ex;
        uturn::Problem problem; // revolve
        problem.steps            = steps;
        problem.slot_bytes       = bytes;
        problem.budget_bytes     = ex.budget(bytes, 10);
        const uturn::Plan plan   = ex.plan(problem);
        const uturn::Model model = chains_model(c);
        c.fail_at                = 400;
        try {
            ex.run(plan, model);
        } catch (const std::runtime_error &e) {
            std::printf("the run stopped: %s\n", e.what());
        }
        c.fail_at = UTURN_NONE;
        std::copy(x0.begin(), x0.end(), c.x.begin());
        const uturn::Stats seen = ex.run(plan, model);
        std::uint64_t stores    = 0;
        for (const uturn::Action &a : plan.actions())
            stores += a.op == UTURN_OP_STORE ? 1 : 0;
        bool ok = stores == seen.stores;
        for (std::size_t k = 0; k < x0.size(); k++) {
            const double s = 1.0 + static_cast<double>(steps) * c.h[k] * x0[k];
            ok = ok && std::fabs(c.xbar[k] - 1.0 / (s * s)) <= 1e-12;
        }
        std::printf("uturn %s from C++ (uturn.hpp): forward_steps %llu, "
                    "stores %llu, peak_slots %llu\n%s\n",
                    uturn::version(),
                    static_cast<unsigned long long>(seen.forward_steps),
                    static_cast<unsigned long long>(seen.stores),
                    static_cast<unsigned long long>(seen.peak_slots),
                    ok ? "ok" : "FAIL");
        return ok ? 0 : 1;
    } catch (const uturn::Error &e) {
        std::fprintf(stderr, "FAIL: %s: %s\n", e.name(), e.what());
        return 1;
    }
}
