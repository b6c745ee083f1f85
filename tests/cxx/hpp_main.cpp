// The uturn.hpp test (ctest cxx_header): a plain program whose checks
// print what failed and make it exit 1; it runs under AddressSanitizer and
// LeakSanitizer in the sanitizer build. Shared parts: the checks, the
// model and its hand-written truth, a user level, scratch directories.
#include "hpp_check.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <stdlib.h>

namespace hpp
{

int failures = 0;

bool check(bool ok, const char *expr, const char *file, int line)
{
    if (!ok) {
        std::fprintf(stderr, "FAIL %s:%d: %s\n", file, line, expr);
        failures++;
    }
    return ok;
}

void Faults::tick(const char *name, int index)
{
    if (thrown && index != DROP && index != CLOSE) /* cleanup is due */
        after_throw++;
    calls[index]++;
    if (where == name && calls[index] == at) {
        thrown = true;
        throw Boom{where, at};
    }
}

Chain::Chain(std::uint64_t steps) : coef(steps), x(DIM), xbar(DIM)
{
    for (std::uint64_t i = 0; i < steps; i++)
        coef[i] = 0.01 * std::cos(0.3 * static_cast<double>(i));
    start();
}

void Chain::start()
{
    for (int j = 0; j < DIM; j++)
        x[static_cast<std::size_t>(j)] = 0.5 + 0.1 * j;
}

void step(const double *in, double *out, double c)
{
    for (int j = 0; j < DIM; j++)
        out[j] = in[j] + c * std::sin(in[(j + 1) % DIM]) * in[j];
}

// (dF/dx)^T obar.
void step_bar(const double *in, const double *obar, double *ibar, double c)
{
    for (int j = 0; j < DIM; j++)
        ibar[j] = obar[j] * (1.0 + c * std::sin(in[(j + 1) % DIM]));
    for (int j = 0; j < DIM; j++) {
        const int k = (j + 1) % DIM;
        ibar[k] += obar[j] * c * std::cos(in[k]) * in[j];
    }
}

std::vector<double> reference(const Chain &chain)
{
    const std::size_t n = chain.coef.size();
    std::vector<std::vector<double>> xs(n + 1, std::vector<double>(DIM));
    Chain fresh(n);
    xs[0] = fresh.x;
    for (std::size_t i = 0; i < n; i++)
        step(xs[i].data(), xs[i + 1].data(), chain.coef[i]);
    std::vector<double> bar = xs[n], prev(DIM);
    for (std::size_t i = n; i-- > 0;) {
        step_bar(xs[i].data(), bar.data(), prev.data(), chain.coef[i]);
        bar.swap(prev);
    }
    return bar;
}

namespace
{

void set_callbacks(uturn::Model &m, Chain &c, Faults &f)
{
    m.forward = [&c, &f](std::uint64_t i) {
        f.tick("forward", FORWARD);
        double y[DIM];
        step(c.x.data(), y, c.coef[i]);
        std::memcpy(c.x.data(), y, sizeof y);
    };
    m.turn = [&c, &f] {
        f.tick("turn", TURN);
        c.J = 0;
        for (int j = 0; j < DIM; j++) {
            const auto k = static_cast<std::size_t>(j);
            c.J += 0.5 * c.x[k] * c.x[k];
            c.xbar[k] = c.x[k];
        }
        return 0;
    };
    m.adjoint = [&c, &f](std::uint64_t i) {
        f.tick("adjoint", ADJOINT);
        double prev[DIM];
        step_bar(c.x.data(), c.xbar.data(), prev, c.coef[i]);
        std::memcpy(c.xbar.data(), prev, sizeof prev);
    };
}

void set_save_load(uturn::Model &m, Chain &c, Faults &f, bool sized)
{
    m.state_bytes = DIM * sizeof(double);
    m.save        = [&c, &f](std::uint64_t, void *dst, std::uint64_t bytes) {
        f.tick("save", SAVE);
        if (bytes != DIM * sizeof(double))
            return 9;
        std::memcpy(dst, c.x.data(), DIM * sizeof(double));
        return 0;
    };
    m.load = [&c, &f](std::uint64_t, const void *src, std::uint64_t bytes) {
        f.tick("load", LOAD);
        if (bytes != DIM * sizeof(double))
            return 9;
        std::memcpy(c.x.data(), src, DIM * sizeof(double));
        return 0;
    };
    if (sized)
        m.state_size = [&f](std::uint64_t) -> std::uint64_t {
            f.tick("state_size", SIZE);
            return DIM * sizeof(double);
        };
}

} // namespace

uturn::Model lambda_model(Chain &chain, Faults &faults, bool save_load,
                          bool sized)
{
    chain.start();
    uturn::Model m;
    set_callbacks(m, chain, faults);
    if (save_load)
        set_save_load(m, chain, faults, sized);
    else
        m.set_state(chain.x);
    return m;
}

std::uint64_t Keeper::live() const
{
    return held.size();
}

uturn::UserStorage keeper_storage(Keeper &k, Faults &f)
{
    uturn::UserStorage s;
    s.open = [&k, &f](std::uint64_t, std::uint64_t) {
        k.opens++; /* a failed open is closed too */
        f.tick("open", OPEN);
        k.held.clear();
    };
    s.put = [&k, &f](std::uint64_t id, std::uint64_t, const void *src,
                     std::uint64_t bytes) {
        f.tick("put", PUT);
        k.puts++;
        const auto *p = static_cast<const unsigned char *>(src);
        k.held[id].assign(p, p + bytes);
    };
    s.get = [&k, &f](std::uint64_t id, std::uint64_t, void *dst,
                     std::uint64_t bytes) {
        f.tick("get", GET);
        k.gets++;
        const auto it = k.held.find(id);
        if (it == k.held.end() || it->second.size() != bytes)
            return 3;
        std::memcpy(dst, k.held[id].data(), bytes);
        return 0;
    };
    s.drop = [&k, &f](std::uint64_t id) {
        f.tick("drop", DROP);
        k.drops++;
        k.held.erase(id);
    };
    s.close = [&k, &f] {
        k.closes++;
        k.held.clear();
        f.tick("close", CLOSE);
    };
    return s;
}

std::string scratch()
{
    char name[] = "/tmp/uturn_hpp.XXXXXX";
    if (mkdtemp(name) == nullptr) {
        std::perror("mkdtemp");
        std::exit(1);
    }
    return name;
}

int entries(const std::string &dir)
{
    int n = 0;
    for (const auto &e : std::filesystem::directory_iterator(dir)) {
        (void)e;
        n++;
    }
    return n;
}

void remove_all(const std::string &dir)
{
    std::filesystem::remove_all(dir);
}

std::vector<uturn::Action> c_stream(const uturn::Plan &plan)
{
    std::vector<uturn::Action> out;
    uturn_cursor_t *c = nullptr;
    if (uturn_cursor_create(plan.get(), nullptr, &c) != UTURN_OK)
        return out;
    uturn_action_t a;
    while (uturn_cursor_next(c, &a))
        out.push_back(a);
    uturn_cursor_free(c);
    return out;
}

bool same(const std::vector<uturn::Action> &a,
          const std::vector<uturn::Action> &b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); i++)
        if (a[i].op != b[i].op || a[i].step != b[i].step ||
            a[i].step_end != b[i].step_end || a[i].slot != b[i].slot)
            return false;
    return true;
}

} // namespace hpp

int main()
{
    hpp::runs();
    hpp::throws();
    hpp::objects();
    hpp::online();
    if (hpp::failures != 0) {
        std::fprintf(stderr, "uturn.hpp: %d checks failed\n", hpp::failures);
        return 1;
    }
    std::printf("uturn.hpp: every check passed\n");
    return 0;
}
