// A C++ consumer: <uturn.h> used unchanged, RAII handles and captureless
// lambdas as callbacks. Four independent chains x_{i+1} = x_i / (1 + h_k x_i)
// share one contiguous std::vector state; with J = sum_k x_{n,k} the gradient
// is dJ/dx_{0,k} = 1 / (1 + n h_k x_{0,k})^2. Periodic checkpoints, stride 25.
#include <cmath>
#include <cstdio>
#include <memory>
#include <uturn.h>
#include <vector>

namespace
{

constexpr uint64_t steps    = 800;
const std::vector<double> h = {0.01, 0.02, 0.005, 0.03};

struct Chains {
    std::vector<double> x, xbar;
    double J = 0;
};

struct PlanFree {
    void operator()(uturn_plan_t *p) const
    {
        uturn_plan_free(p);
    }
};
struct ExecutorFree {
    void operator()(uturn_executor_t *e) const
    {
        uturn_executor_free(e);
    }
};

} // namespace

int main()
{
    const std::vector<double> x0 = {1.0, 0.75, 4.0, 1.0};
    Chains c{x0, std::vector<double>(x0.size()), 0.0};

    uturn_error_t err;
    uturn_error_init(&err);
    uturn_executor_t *raw_ex = nullptr;
    uturn_status_t st        = uturn_executor_create(nullptr, &raw_ex, &err);
    std::unique_ptr<uturn_executor_t, ExecutorFree> ex(raw_ex);

    uturn_problem_t problem;
    uturn_problem_init(&problem);
    problem.planner        = UTURN_PLANNER_PERIODIC;
    problem.steps          = steps;
    problem.stride         = 25;
    problem.slot_bytes     = x0.size() * sizeof(double);
    uturn_plan_t *raw_plan = nullptr;
    if (st == UTURN_OK)
        st = uturn_executor_plan(ex.get(), &problem, &raw_plan, &err);
    std::unique_ptr<uturn_plan_t, PlanFree> plan(raw_plan);

    uturn_model_t model;
    uturn_model_init(&model);
    model.user    = &c;
    model.forward = [](void *user, uint64_t) {
        auto &ch = *static_cast<Chains *>(user);
        for (std::size_t k = 0; k < ch.x.size(); k++)
            ch.x[k] /= 1.0 + h[k] * ch.x[k];
        return 0;
    };
    model.turn = [](void *user) {
        auto &ch = *static_cast<Chains *>(user);
        ch.J     = 0;
        for (std::size_t k = 0; k < ch.x.size(); k++) {
            ch.J += ch.x[k];
            ch.xbar[k] = 1.0;
        }
        return 0;
    };
    model.adjoint = [](void *user, uint64_t) {
        auto &ch = *static_cast<Chains *>(user);
        for (std::size_t k = 0; k < ch.x.size(); k++) {
            const double s = 1.0 + h[k] * ch.x[k];
            ch.xbar[k] /= s * s;
        }
        return 0;
    };
    model.state       = c.x.data();
    model.state_bytes = c.x.size() * sizeof(double);

    uturn_stats_t stats;
    uturn_stats_init(&stats);
    if (st == UTURN_OK)
        st = uturn_executor_run(ex.get(), plan.get(), &model, nullptr, &stats,
                                nullptr, &err);
    if (st != UTURN_OK) {
        std::fprintf(stderr, "FAIL: %s: %s\n", uturn_status_name(st),
                     err.message);
        return 1;
    }

    bool ok = true;
    for (std::size_t k = 0; k < x0.size(); k++) {
        const double s    = 1.0 + double(steps) * h[k] * x0[k];
        const double want = 1.0 / (s * s);
        ok                = ok && std::fabs(c.xbar[k] - want) <= 1e-12;
        std::printf("dJ/dx0[%zu] = %.15f, analytic %.15f\n", k, c.xbar[k],
                    want);
    }
    std::printf("uturn %s from C++: J = %.15f, forward_steps %llu, "
                "stores %llu, peak_slots %llu\n",
                uturn_version_string(), c.J,
                static_cast<unsigned long long>(stats.forward_steps),
                static_cast<unsigned long long>(stats.stores),
                static_cast<unsigned long long>(stats.peak_slots));
    std::printf("%s\n", ok ? "ok" : "FAIL");
    return ok ? 0 : 1;
}
