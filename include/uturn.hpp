/*
 * uturn.hpp: a header-only C++17 layer over <uturn.h>.
 *
 * It owns the C handles (move-only RAII classes), turns every failing
 * status into a thrown uturn::Error, lets any callable (lambdas with
 * captures, std::function, function objects) be a callback, and carries
 * exceptions across the C library: a callback that throws is caught at the
 * C boundary, the run stops there and frees everything as after any failed
 * callback, and the exception comes out of Executor::run() with its
 * original type. It adds no semantics of its own: every class and function
 * here calls the C function of the same name, whose documentation in
 * <uturn.h> (installed beside this header) is the manual for what it does,
 * what it counts and when it fails. The model and the meaning of every
 * action and count are in docs/model.md.
 *
 *   uturn::Executor ex;
 *   uturn::Problem p;
 *   p.steps = n; p.budget_bytes = 64 << 20; p.slot_bytes = x.size() * 8;
 *   uturn::Plan plan = ex.plan(p);
 *   uturn::Model m;
 *   m.set_state(x);
 *   m.forward = [&](std::uint64_t i) { step(x, i); };
 *   m.turn    = [&] { xbar = dJ(x); };
 *   m.adjoint = [&](std::uint64_t i) { step_bar(x, xbar, i); };
 *   uturn::Stats seen = ex.run(plan, m);
 *
 * Errors: every function that can fail throws uturn::Error (the status,
 * the library's message and the uturn_error_t fields) unless it says
 * otherwise; an allocation in this header may throw std::bad_alloc.
 * Handles: a default-constructed or moved-from object holds no handle;
 * calling it throws uturn::Error with UTURN_E_INVALID_ARG (the C library's
 * answer to NULL), never undefined behaviour.
 * Thread safety: as the C objects: a Plan may be shared between threads
 * for reading (and running); a Cursor, Validator, Reader or Executor is
 * used by one thread at a time.
 * Since: 0.2 (the whole header).
 */
#ifndef UTURN_HPP_INCLUDED
#define UTURN_HPP_INCLUDED

/* The layer uses C++17 (std::is_same_v, if constexpr, std::invoke_result);
 * from C or an older C++, use <uturn.h>, which this header wraps. */
#if (defined(_MSVC_LANG) && _MSVC_LANG < 201703L) ||                          \
    (!defined(_MSVC_LANG) && __cplusplus < 201703L)
#error "uturn.hpp needs C++17 or later (e.g. -std=c++17); from C or C++14 use <uturn.h>"
#endif

#include "uturn.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

namespace uturn
{

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */
/* ------------------------------------------------------------------------ */

/**
 * A failing status of the C library, with everything its uturn_error_t
 * said. what() is the library's message, or uturn_strerror(status) when it
 * gave none. The error's fields that do not apply are UTURN_NONE (action,
 * step) or 0 (line, minimum_slots, minimum_bytes), as in uturn_error_t.
 * Exceptions thrown by callbacks are never wrapped in an Error: they come
 * out of Executor::run() as they were thrown.
 */
class Error : public std::runtime_error
{
  public:
    /** An error for @p status with the details a C call wrote. */
    Error(uturn_status_t status, const uturn_error_t &detail)
        : std::runtime_error(describe(status, detail.message)), detail_(detail)
    {
        detail_.status = status;
    }

    /** An error for @p status with @p message (NULL: the fixed text). */
    Error(uturn_status_t status, const char *message)
        : std::runtime_error(describe(status, message)), detail_(blank())
    {
        detail_.status         = status;
        const std::string text = what();
        const std::size_t n =
            text.copy(detail_.message, sizeof detail_.message - 1);
        detail_.message[n] = '\0';
    }

    /** The status the C call returned (never UTURN_OK). */
    uturn_status_t status() const noexcept
    {
        return detail_.status;
    }

    /** The enumerator's name, e.g. "UTURN_E_INFEASIBLE". */
    const char *name() const noexcept
    {
        return uturn_status_name(detail_.status);
    }

    /** Every field the library filled in (message included). */
    const uturn_error_t &detail() const noexcept
    {
        return detail_;
    }

    /** Index of the action at fault, or UTURN_NONE. */
    std::uint64_t action() const noexcept
    {
        return detail_.action;
    }

    /** 1-based line in plan text, or 0. */
    std::uint64_t line() const noexcept
    {
        return detail_.line;
    }

    /** The step at fault, or UTURN_NONE. */
    std::uint64_t step() const noexcept
    {
        return detail_.step;
    }

    /** Slots the request needs at least, or 0. */
    std::uint64_t minimum_slots() const noexcept
    {
        return detail_.minimum_slots;
    }

    /** Bytes the request needs at least, or 0. */
    std::uint64_t minimum_bytes() const noexcept
    {
        return detail_.minimum_bytes;
    }

  private:
    static uturn_error_t blank() noexcept
    {
        uturn_error_t e;
        uturn_error_init(&e);
        return e;
    }

    static std::string describe(uturn_status_t status, const char *message)
    {
        if (message != nullptr && message[0] != '\0')
            return message;
        return uturn_strerror(status);
    }

    uturn_error_t detail_;
};

namespace detail
{

/* The out-parameter every fallible C call takes, prepared. */
inline uturn_error_t error_out() noexcept
{
    uturn_error_t e;
    uturn_error_init(&e);
    return e;
}

/* Throw for a failing status; the message from @p e when it has one. */
inline void check(uturn_status_t status, const uturn_error_t &e)
{
    if (status != UTURN_OK)
        throw Error(status, e);
}

/* Throw for a failing status of a call without an error out-parameter. */
inline void check(uturn_status_t status, const char *what)
{
    if (status != UTURN_OK)
        throw Error(
            status,
            (std::string(what) + ": " + uturn_strerror(status)).c_str());
}

} // namespace detail

/* ------------------------------------------------------------------------ */
/* Value structs                                                            */
/* ------------------------------------------------------------------------ */

/*
 * Each value struct below is its C struct, prepared by its
 * uturn_<noun>_init(): it adds no member, so a pointer to it is a pointer
 * to the C struct and the fields are the C fields, documented there.
 */

/** uturn_level_t, prepared: one level of slot storage. */
struct Level : uturn_level_t {
    /** All 0, no name (uturn_level_init()). */
    Level() noexcept
    {
        uturn_level_init_size(this, sizeof(uturn_level_t));
    }

    /** A level of @p slot_count slots; @p label is copied by the plan. */
    Level(const char *label, std::uint64_t slot_count,
          std::uint64_t cost_of_write = 0,
          std::uint64_t cost_of_read  = 0) noexcept
        : Level()
    {
        name       = label;
        slots      = slot_count;
        write_cost = cost_of_write;
        read_cost  = cost_of_read;
    }

    /** A level of @p byte_count bytes (resolved when planned). */
    static Level of_bytes(const char *label, std::uint64_t byte_count,
                          std::uint64_t cost_of_write = 0,
                          std::uint64_t cost_of_read  = 0) noexcept
    {
        Level l(label, 0, cost_of_write, cost_of_read);
        l.bytes = byte_count;
        return l;
    }
};

/** uturn_problem_t, prepared (revolve, everything else 0). */
struct Problem : uturn_problem_t {
    /** The defaults of uturn_problem_init(). */
    Problem() noexcept
    {
        uturn_problem_init_size(this, sizeof(uturn_problem_t));
    }

    /**
     * Point levels and level_count at @p list (NULL and 0 when it is
     * empty). The vector must outlive every call that reads this problem
     * (a plan copies what it needs).
     */
    Problem &use_levels(const std::vector<Level> &list) noexcept
    {
        levels      = list.empty() ? nullptr : list.data();
        level_count = list.size();
        return *this;
    }
};

/** uturn_stats_t, prepared: the counts of docs/model.md section 3. */
struct Stats : uturn_stats_t {
    /** All counts 0 (uturn_stats_init()). */
    Stats() noexcept
    {
        uturn_stats_init_size(this, sizeof(uturn_stats_t));
    }
};

/** uturn_level_stats_t, prepared: one storage level's counts. */
struct LevelStats : uturn_level_stats_t {
    /** All counts 0 (uturn_level_stats_init()). */
    LevelStats() noexcept
    {
        uturn_level_stats_init_size(this, sizeof(uturn_level_stats_t));
    }
};

/** uturn_report_t, prepared: what a run did beyond the counts. */
struct Report : uturn_report_t {
    /** Reset (uturn_report_init()). */
    Report() noexcept
    {
        uturn_report_init_size(this, sizeof(uturn_report_t));
    }
};

/** uturn_level_report_t, prepared: one level's figures of the last run. */
struct LevelReport : uturn_level_report_t {
    /** All zeros (uturn_level_report_init()). */
    LevelReport() noexcept
    {
        uturn_level_report_init_size(this, sizeof(uturn_level_report_t));
    }
};

/** uturn_slot_cost_t, prepared: what an executor spends on a slot. */
struct SlotCost : uturn_slot_cost_t {
    /** All zeros (uturn_slot_cost_init()). */
    SlotCost() noexcept
    {
        uturn_slot_cost_init_size(this, sizeof(uturn_slot_cost_t));
    }
};

static_assert(sizeof(Level) == sizeof(uturn_level_t),
              "a Level array must be a uturn_level_t array");

/** One action: the C struct (op, step, step_end, slot). */
using Action = uturn_action_t;

/** The progress report handed to RunOptions::on_progress. */
using Progress = uturn_progress_t;

/**
 * @p action as one line of plan text, e.g. "advance 0 4"
 * (uturn_action_format()). Throws Error (UTURN_E_INVALID_ARG) for an
 * unknown op.
 */
inline std::string to_string(const Action &action)
{
    char line[96];
    std::size_t length = 0;
    detail::check(uturn_action_format(&action, line, sizeof line, &length),
                  "uturn_action_format");
    return std::string(line, length < sizeof line ? length : sizeof line - 1);
}

/** The version of the library linked at run time, e.g. "0.2.0". */
inline const char *version() noexcept
{
    return uturn_version_string();
}

/**
 * The planner called @p name ("revolve", "hrevolve", ...;
 * uturn_planner_from_name()). Throws Error (UTURN_E_INVALID_ARG) for an
 * unknown name.
 */
inline uturn_planner_t planner_from_name(const std::string &name)
{
    uturn_planner_t planner = UTURN_PLANNER_REVOLVE;
    const uturn_status_t st = uturn_planner_from_name(name.c_str(), &planner);
    if (st != UTURN_OK)
        throw Error(st, ("unknown planner \"" + name + "\"").c_str());
    return planner;
}

/* ------------------------------------------------------------------------ */
/* Callbacks                                                                */
/* ------------------------------------------------------------------------ */

/**
 * A callback that may stop the run, from any callable taking @p Args.
 * The callable returns void (the run goes on; throw to stop it) or int (0:
 * go on; any other value stops the run with the C library's status, e.g.
 * UTURN_E_CALLBACK, thrown as Error). An exception it throws stops the run
 * and comes out of Executor::run() as it was thrown. The callable is
 * copied into a std::function, so it must be copyable (capture by
 * reference what cannot be copied). A default-constructed Callback, or
 * one made from nullptr, a null function pointer or an empty
 * std::function, is empty: the C field it fills is then NULL.
 */
template <class... Args> class Callback
{
  public:
    /** An empty callback. */
    Callback() noexcept = default;

    /** An empty callback. */
    Callback(std::nullptr_t) noexcept
    {
    }

    /** A callback calling a copy of @p f. */
    template <class F, class = std::enable_if_t<
                           !std::is_same_v<std::decay_t<F>, Callback> &&
                           std::is_invocable_v<std::decay_t<F> &, Args...>>>
    Callback(F &&f) : id_(identity(f)), fn_(wrap(std::forward<F>(f)))
    {
        if (!fn_)
            id_ = Identity();
    }

    /** Whether a callable is held. */
    explicit operator bool() const noexcept
    {
        return static_cast<bool>(fn_);
    }

    /** Call it: 0 to go on, non-zero to stop. Throws what it throws. */
    int operator()(Args... args) const
    {
        return fn_(args...);
    }

    /**
     * Whether @p other calls the same callable, as far as can be told:
     * both empty; a copy of this Callback (or this one of it); or made
     * from callables of the same type that are equal byte for byte (a
     * function pointer, a lambda capturing only references, pointers or
     * numbers) or that hold nothing (a lambda without captures). Otherwise
     * (another type, other captured values, or a callable that cannot be
     * compared, such as a std::function or a lambda holding a vector) it
     * is not, even when it happens to do the same.
     */
    bool same_as(const Callback &other) const noexcept
    {
        const Identity &a = id_, &b = other.id_;
        if (a.type == nullptr || b.type == nullptr)
            return a.type == b.type;
        if (a.token == b.token)
            return true;
        if (*a.type != *b.type)
            return false;
        return a.empty || (a.size != 0 && a.size == b.size &&
                           std::memcmp(a.bytes, b.bytes, a.size) == 0);
    }

  private:
    /* What same_as() compares: shared by copies (token), and the type,
     * emptiness and bytes of the callable it was made from. */
    struct Identity {
        std::shared_ptr<const char> token;
        const std::type_info *type = nullptr;
        bool empty                 = false;
        std::size_t size           = 0; /* 0: bytes not comparable */
        unsigned char bytes[4 * sizeof(void *)] = {};
    };

    template <class F> static Identity identity(const F &f)
    {
        using Fn = std::decay_t<F>;
        Identity id;
        id.token = std::make_shared<const char>('\0');
        id.type  = &typeid(Fn);
        id.empty = std::is_empty_v<Fn>;
        if constexpr (std::is_trivially_copyable_v<Fn> &&
                      !std::is_empty_v<Fn> && sizeof(Fn) <= sizeof id.bytes) {
            const Fn g = f; /* a function's name becomes its pointer */
            std::memcpy(id.bytes, &g, sizeof(Fn));
            id.size = sizeof(Fn);
        }
        return id;
    }

    template <class F> static std::function<int(Args...)> wrap(F &&f)
    {
        using Fn = std::decay_t<F>;
        using R  = std::invoke_result_t<Fn &, Args...>;
        static_assert(std::is_void_v<R> || std::is_same_v<R, int>,
                      "a uturn callback returns void (throw to stop the "
                      "run) or int (0: go on, else stop)");
        /* a function's name is never null (and gcc says so) */
        if constexpr (!std::is_function_v<std::remove_reference_t<F>> &&
                      std::is_constructible_v<bool, const Fn &>)
            if (!static_cast<bool>(f))
                return nullptr;
        if constexpr (std::is_void_v<R>)
            return [g = Fn(std::forward<F>(f))](Args... args) mutable {
                std::invoke(g, args...);
                return 0;
            };
        else
            return std::function<int(Args...)>(std::forward<F>(f));
    }

    Identity id_;
    std::function<int(Args...)> fn_;
};

/**
 * The caller's model: uturn_model_t with callables. Every callback runs on
 * the thread that called Executor::run(); see uturn_model_t for what each
 * one receives and must do. Empty callbacks are NULL in the C model (the
 * run then refuses a model without forward, turn or adjoint, as in C).
 */
struct Model {
    /** Live x_step -> x_step+1. */
    Callback<std::uint64_t> forward;
    /** Live x_n: evaluate J and seed xbar_n. */
    Callback<> turn;
    /** Adjoint step `step` with the live state x_step. */
    Callback<std::uint64_t> adjoint;
    /** The contiguous live state, or nullptr (save/load then). */
    void *state = nullptr;
    /** Its size; with save/load, the uniform size. */
    std::uint64_t state_bytes = 0;
    /** save(step, dst, bytes): write the live state x_step into dst. */
    Callback<std::uint64_t, void *, std::uint64_t> save;
    /** load(step, src, bytes): make src the live state x_step. */
    Callback<std::uint64_t, const void *, std::uint64_t> load;
    /**
     * Bytes of x_step (save/load), or empty: every state is state_bytes.
     * It has no way to stop the run: if it throws, it answers state_bytes
     * and the next callback that can stop the run does, before the user's
     * code is called again; run() then rethrows.
     */
    std::function<std::uint64_t(std::uint64_t)> state_size;
    /**
     * Online plans: true when the live state x_step is the last, x_n.
     * If it throws, it answers false and the next callback stops the run
     * (as state_size).
     */
    std::function<bool(std::uint64_t)> is_last;
    /** Bytes of a step's record (0: none); see uturn_model_t. */
    std::uint64_t record_bytes = 0;
    /** forward_record(step, record, again): forward with a record. */
    Callback<std::uint64_t, void *, bool> forward_record;
    /**
     * Durable runs (RunOptions::durable_dir): the bytes of the adjoint
     * state (everything turn and adjoint keep between calls), written by
     * save_adjoint(dst, bytes) at each durable point and given back by
     * load_adjoint(src, bytes) to a resumed run.
     */
    std::uint64_t adjoint_bytes = 0;
    Callback<void *, std::uint64_t> save_adjoint;
    Callback<const void *, std::uint64_t> load_adjoint;

    /**
     * Make @p data, @p count elements of a trivially copyable T, the
     * contiguous live state. The storage must not move while a run uses it
     * (a std::vector must not reallocate).
     */
    template <class T> Model &set_state(T *data, std::size_t count) noexcept
    {
        static_assert(std::is_trivially_copyable_v<T>,
                      "the executor copies the state with memcpy");
        state       = data;
        state_bytes = static_cast<std::uint64_t>(count * sizeof(T));
        return *this;
    }

    /** set_state(v.data(), v.size()). */
    template <class T, class A> Model &set_state(std::vector<T, A> &v) noexcept
    {
        return set_state(v.data(), v.size());
    }
};

/**
 * Options of one run: uturn_run_options_t with callables. An empty
 * callback is NULL in the C options.
 */
struct RunOptions {
    /** 0: the plan's budget_bytes (0 there: none). */
    std::uint64_t budget_bytes = 0;
    /** Hash states to catch a diverging recomputation. */
    bool verify = false;
    /** progress(reversed, steps) after every progress_every reverse steps. */
    Callback<std::uint64_t, std::uint64_t> progress;
    /** 0: about every 1% of the steps. */
    std::uint64_t progress_every = 0;
    /** on_progress(p) over the whole run, the first sweep included. */
    Callback<const Progress &> on_progress;
    /** 0: about every 1% of the total work. */
    std::uint64_t on_progress_every = 0;
    /** The run's own sizes of x_0 .. x_{n-1}, or nullptr: the plan's. */
    const std::uint64_t *step_bytes = nullptr;
    /**
     * A plan of several sweeps: run() does the first forward and sweep 1,
     * Executor::sweep() each further one (uturn_executor_sweep()). The
     * Plan and the model's state must outlive the held trajectory (until
     * the last sweep or release()); run() on a temporary Plan keeps it in
     * the executor. Not with progress callbacks here (they would outlive
     * run()'s call).
     */
    bool sweeps_on_request = false;
    /**
     * A durable run (uturn_run_options_t.durable_dir and what follows):
     * the directory (nullptr: not durable), the model's tag, seconds
     * between points (0: on request only), the flag a signal handler sets
     * to UTURN_DURABLE_POINT or UTURN_DURABLE_STOP (the run then throws
     * uturn::Error with status UTURN_E_STOPPED), and the mode
     * (UTURN_DURABLE_NEW, _RESUME or _AUTO). The model needs
     * adjoint_bytes, save_adjoint and load_adjoint.
     */
    const char *durable_dir = nullptr;
    const char *durable_tag = nullptr;
    double durable_interval = 0;
    volatile sig_atomic_t *durable_request = nullptr;
    int durable_mode = UTURN_DURABLE_NEW;
};

/**
 * A user's storage for a level of slots: uturn_storage_callbacks_t with
 * callables. put and get are required; open may be empty. drop and close
 * return nothing and so cannot stop a run themselves: an exception they
 * throw is kept, the next callback that can stop the run does so without
 * calling the user's code, and run() rethrows it once the run has ended.
 * close is called after every run that began, on every exit path, a run
 * stopped by an exception included: release the level's states there.
 */
struct UserStorage {
    /** open(ids, bytes) before a run; empty: nothing to prepare. */
    Callback<std::uint64_t, std::uint64_t> open;
    /** put(id, step, src, bytes): keep the state x_step under id. */
    Callback<std::uint64_t, std::uint64_t, const void *, std::uint64_t> put;
    /** get(id, step, dst, bytes): write the state kept under id to dst. */
    Callback<std::uint64_t, std::uint64_t, void *, std::uint64_t> get;
    /** drop(id): the state under id is no longer needed; may be empty. */
    std::function<void(std::uint64_t)> drop;
    /** close() after a run, on every exit path; may be empty. */
    std::function<void()> close;
    /** Since 0.3: get may give back other bytes than put was given (a
     *  lossy compressor): not checksummed, and the report says lossy.
     *  false: a get that gives other bytes stops the run (UTURN_E_IO). */
    bool lossy = false;
};

/** Where one level beyond memory lives: uturn_storage_t. */
struct Storage {
    /** UTURN_STORAGE_FILE, UTURN_STORAGE_USER (or MEMORY). */
    uturn_storage_kind_t kind = UTURN_STORAGE_FILE;
    /** FILE: the parent of the run's directory; empty: $TMPDIR, /tmp. */
    std::string directory;
    /** FILE: I/O in the run's thread, not overlapped with compute. */
    bool synchronous = false;
    /** USER: the callbacks. */
    UserStorage callbacks;

    /** A file level in @p parent (empty: $TMPDIR, else /tmp). */
    static Storage file(std::string parent = std::string(),
                        bool in_run_thread = false)
    {
        Storage s;
        s.directory   = std::move(parent);
        s.synchronous = in_run_thread;
        return s;
    }

    /** A level kept by the callbacks of @p storage. */
    static Storage user(UserStorage storage)
    {
        Storage s;
        s.kind      = UTURN_STORAGE_USER;
        s.callbacks = std::move(storage);
        return s;
    }
};

/** How an Executor is made: uturn_executor_options_t. */
struct ExecutorOptions {
    /** The executor's bookkeeping; nullptr: malloc/free. Copied. */
    const uturn_allocator_t *alloc = nullptr;
    /** Slot storage; nullptr: the executor's own pages. Copied. */
    const uturn_allocator_t *slot_alloc = nullptr;
    /** The storage of levels 1, 2, ..; copied into the executor. */
    std::vector<Storage> levels;
    /** Buffers for overlapped (file) levels; 0: 2. */
    std::uint64_t io_buffers = 0;
};

/* ------------------------------------------------------------------------ */
/* The C boundary                                                           */
/* ------------------------------------------------------------------------ */

/*
 * Namespace uturn::detail is how this header reaches the C library: it is
 * not part of the API, and its names may change in any release.
 */
namespace detail
{

/*
 * Where a run keeps the first exception a callback threw. Once it holds
 * one, every later callback that can stop the run does so at once without
 * calling the user's code, so the run ends at the next chance and the
 * library frees what it holds; run() then rethrows.
 */
struct Catcher {
    std::exception_ptr caught;

    template <class F> int status(F &&f) noexcept
    {
        if (caught)
            return 1;
        try {
            return f();
        } catch (...) {
            caught = std::current_exception();
            return 1;
        }
    }

    /* A callback that cannot stop the run: its answer, or @p fallback. */
    template <class T, class F> T value(F &&f, T fallback) noexcept
    {
        if (caught)
            return fallback;
        try {
            return f();
        } catch (...) {
            caught = std::current_exception();
            return fallback;
        }
    }

    /* drop and close: called even after an exception (they clean up). */
    template <class F> void cleanup(F &&f) noexcept
    {
        try {
            f();
        } catch (...) {
            if (!caught)
                caught = std::current_exception();
        }
    }

    void rethrow()
    {
        if (caught)
            std::rethrow_exception(std::exchange(caught, nullptr));
    }
};

/* What a run's C callbacks reach through `user`. */
struct RunContext {
    const Model *model;
    const RunOptions *options;
    Catcher *catcher;
};

inline RunContext &context(void *user) noexcept
{
    return *static_cast<RunContext *>(user);
}

inline int forward_cb(void *user, std::uint64_t step) noexcept
{
    RunContext &r = context(user);
    return r.catcher->status([&] { return r.model->forward(step); });
}

inline int turn_cb(void *user) noexcept
{
    RunContext &r = context(user);
    return r.catcher->status([&] { return r.model->turn(); });
}

inline int adjoint_cb(void *user, std::uint64_t step) noexcept
{
    RunContext &r = context(user);
    return r.catcher->status([&] { return r.model->adjoint(step); });
}

inline int save_cb(void *user, std::uint64_t step, void *dst,
                   std::uint64_t bytes) noexcept
{
    RunContext &r = context(user);
    return r.catcher->status([&] { return r.model->save(step, dst, bytes); });
}

inline int load_cb(void *user, std::uint64_t step, const void *src,
                   std::uint64_t bytes) noexcept
{
    RunContext &r = context(user);
    return r.catcher->status([&] { return r.model->load(step, src, bytes); });
}

inline int save_adjoint_cb(void *user, void *dst, std::uint64_t bytes) noexcept
{
    RunContext &r = context(user);
    return r.catcher->status([&] { return r.model->save_adjoint(dst, bytes); });
}

inline int load_adjoint_cb(void *user, const void *src,
                           std::uint64_t bytes) noexcept
{
    RunContext &r = context(user);
    return r.catcher->status([&] { return r.model->load_adjoint(src, bytes); });
}

inline std::uint64_t state_size_cb(void *user, std::uint64_t step) noexcept
{
    RunContext &r = context(user);
    return r.catcher->value([&] { return r.model->state_size(step); },
                            r.model->state_bytes);
}

inline int is_last_cb(void *user, std::uint64_t step) noexcept
{
    RunContext &r = context(user);
    return r.catcher->value([&] { return r.model->is_last(step) ? 1 : 0; }, 0);
}

inline int forward_record_cb(void *user, std::uint64_t step, void *record,
                             bool again) noexcept
{
    RunContext &r = context(user);
    return r.catcher->status(
        [&] { return r.model->forward_record(step, record, again); });
}

inline int progress_cb(void *user, std::uint64_t reversed,
                       std::uint64_t steps) noexcept
{
    RunContext &r = context(user);
    return r.catcher->status(
        [&] { return r.options->progress(reversed, steps); });
}

inline int on_progress_cb(void *user, const uturn_progress_t *p) noexcept
{
    RunContext &r = context(user);
    return r.catcher->status([&] { return r.options->on_progress(*p); });
}

/* The C model for @p run: a trampoline for each callback the model has. */
inline uturn_model_t c_model(RunContext &run) noexcept
{
    const Model &m = *run.model;
    uturn_model_t c;
    uturn_model_init(&c);
    c.user           = &run;
    c.forward        = m.forward ? forward_cb : nullptr;
    c.turn           = m.turn ? turn_cb : nullptr;
    c.adjoint        = m.adjoint ? adjoint_cb : nullptr;
    c.state          = m.state;
    c.state_bytes    = m.state_bytes;
    c.save           = m.save ? save_cb : nullptr;
    c.load           = m.load ? load_cb : nullptr;
    c.state_size     = m.state_size ? state_size_cb : nullptr;
    c.is_last        = m.is_last ? is_last_cb : nullptr;
    c.record_bytes   = m.record_bytes;
    c.forward_record = m.forward_record ? forward_record_cb : nullptr;
    c.adjoint_bytes  = m.adjoint_bytes;
    c.save_adjoint   = m.save_adjoint ? save_adjoint_cb : nullptr;
    c.load_adjoint   = m.load_adjoint ? load_adjoint_cb : nullptr;
    return c;
}

/* The C options for @p run. */
inline uturn_run_options_t c_options(RunContext &run) noexcept
{
    const RunOptions &o = *run.options;
    uturn_run_options_t c;
    uturn_run_options_init(&c);
    c.budget_bytes      = o.budget_bytes;
    c.verify            = o.verify;
    c.progress          = o.progress ? progress_cb : nullptr;
    c.progress_user     = &run;
    c.progress_every    = o.progress_every;
    c.on_progress       = o.on_progress ? on_progress_cb : nullptr;
    c.on_progress_user  = &run;
    c.on_progress_every = o.on_progress_every;
    c.step_bytes        = o.step_bytes;
    c.sweeps_on_request = o.sweeps_on_request;
    c.durable_dir       = o.durable_dir;
    c.durable_tag       = o.durable_tag;
    c.durable_interval  = o.durable_interval;
    c.durable_request   = o.durable_request;
    c.durable_mode      = o.durable_mode;
    return c;
}

/*
 * One user storage level as the C library sees it: the callbacks struct
 * (which must outlive the executor), the caller's callables, and the
 * executor's catcher. Kept behind a pointer so that it never moves.
 */
struct StorageLink {
    UserStorage user;
    Catcher *catcher;
    uturn_storage_callbacks_t c;
};

inline StorageLink &link(void *user) noexcept
{
    return *static_cast<StorageLink *>(user);
}

inline int storage_open_cb(void *user, std::uint64_t ids,
                           std::uint64_t bytes) noexcept
{
    StorageLink &s = link(user);
    return s.catcher->status([&] { return s.user.open(ids, bytes); });
}

inline int storage_put_cb(void *user, std::uint64_t id, std::uint64_t step,
                          const void *src, std::uint64_t bytes) noexcept
{
    StorageLink &s = link(user);
    return s.catcher->status([&] { return s.user.put(id, step, src, bytes); });
}

inline int storage_get_cb(void *user, std::uint64_t id, std::uint64_t step,
                          void *dst, std::uint64_t bytes) noexcept
{
    StorageLink &s = link(user);
    return s.catcher->status([&] { return s.user.get(id, step, dst, bytes); });
}

inline void storage_drop_cb(void *user, std::uint64_t id) noexcept
{
    StorageLink &s = link(user);
    s.catcher->cleanup([&] { s.user.drop(id); });
}

inline void storage_close_cb(void *user) noexcept
{
    StorageLink &s = link(user);
    s.catcher->cleanup([&] { s.user.close(); });
}

/* A link for @p user's callbacks, reporting to @p catcher. */
inline std::unique_ptr<StorageLink> make_link(const UserStorage &user,
                                              Catcher *catcher)
{
    auto s     = std::make_unique<StorageLink>();
    s->user    = user;
    s->catcher = catcher;
    s->c       = uturn_storage_callbacks_t{};
    s->c.size  = sizeof(uturn_storage_callbacks_t);
    s->c.user  = s.get();
    s->c.open  = user.open ? storage_open_cb : nullptr;
    s->c.put   = user.put ? storage_put_cb : nullptr;
    s->c.get   = user.get ? storage_get_cb : nullptr;
    s->c.drop  = user.drop ? storage_drop_cb : nullptr;
    s->c.close = user.close ? storage_close_cb : nullptr;
    s->c.lossy = user.lossy;
    return s;
}

/* Deleters for the C handles. */
struct PlanFree {
    void operator()(uturn_plan_t *p) const noexcept
    {
        uturn_plan_free(p);
    }
};
struct CursorFree {
    void operator()(uturn_cursor_t *c) const noexcept
    {
        uturn_cursor_free(c);
    }
};
struct ValidatorFree {
    void operator()(uturn_validator_t *v) const noexcept
    {
        uturn_validator_free(v);
    }
};
struct ReaderFree {
    void operator()(uturn_reader_t *r) const noexcept
    {
        uturn_reader_free(r);
    }
};
struct ExecutorFree {
    void operator()(uturn_executor_t *e) const noexcept
    {
        uturn_executor_free(e);
    }
};
struct FileClose {
    void operator()(std::FILE *f) const noexcept
    {
        std::fclose(f);
    }
};

/* The whole of @p f, from its start. */
inline std::string slurp(std::FILE *f)
{
    std::string text;
    char chunk[4096];
    std::rewind(f);
    std::size_t got = 0;
    while ((got = std::fread(chunk, 1, sizeof chunk, f)) > 0)
        text.append(chunk, got);
    if (std::ferror(f))
        throw Error(UTURN_E_IO, "reading back the plan text failed");
    return text;
}

} // namespace detail

/* ------------------------------------------------------------------------ */
/* Plans and cursors                                                        */
/* ------------------------------------------------------------------------ */

class Cursor;

/**
 * An immutable plan (uturn_plan_t), owned. Move-only; a moved-from Plan is
 * empty. A plan must outlive its cursors, and must not be destroyed while
 * a run uses it.
 */
class Plan
{
  public:
    /** An empty plan (no handle). */
    Plan() noexcept = default;

    /** Take ownership of @p owned (from the C API; may be NULL). */
    explicit Plan(uturn_plan_t *owned) noexcept : handle_(owned)
    {
    }

    /**
     * Plan @p problem (uturn_plan_create()). @p alloc serves the plan and
     * its cursors (nullptr: malloc/free); its `user` must outlive them.
     */
    explicit Plan(const Problem &problem,
                  const uturn_allocator_t *alloc = nullptr)
    {
        uturn_plan_t *raw = nullptr;
        uturn_error_t e   = detail::error_out();
        detail::check(uturn_plan_create(&problem, alloc, &raw, &e), e);
        handle_.reset(raw);
    }

    /** Read plan text (uturn_plan_parse()); the whole plan is validated. */
    static Plan parse(std::string_view text,
                      const uturn_allocator_t *alloc = nullptr)
    {
        uturn_plan_t *raw = nullptr;
        uturn_error_t e   = detail::error_out();
        detail::check(
            uturn_plan_parse(text.data(), text.size(), alloc, &raw, &e), e);
        return Plan(raw);
    }

    /** Whether a plan is held. */
    explicit operator bool() const noexcept
    {
        return handle_ != nullptr;
    }

    /** The C handle (still owned by this Plan), or NULL. */
    uturn_plan_t *get() const noexcept
    {
        return handle_.get();
    }

    /** Give up ownership: the caller frees the returned handle. */
    uturn_plan_t *release() noexcept
    {
        return handle_.release();
    }

    /** The predicted counts (uturn_plan_stats()). */
    Stats stats() const
    {
        Stats s;
        detail::check(uturn_plan_stats(get(), &s), "uturn_plan_stats");
        return s;
    }

    /** Storage level @p level's counts (uturn_plan_level_stats()); its
     *  name belongs to the plan. */
    LevelStats level_stats(std::uint64_t level) const
    {
        LevelStats s;
        detail::check(uturn_plan_level_stats(get(), level, &s),
                      "uturn_plan_level_stats");
        return s;
    }

    /** The problem as the plan resolved it (uturn_plan_problem()). */
    Problem problem() const
    {
        Problem p;
        detail::check(uturn_plan_problem(get(), &p), "uturn_plan_problem");
        return p;
    }

    /** The plan's fingerprint (uturn_plan_fingerprint()). */
    std::uint64_t fingerprint() const
    {
        std::uint64_t f = 0;
        detail::check(uturn_plan_fingerprint(get(), &f),
                      "uturn_plan_fingerprint");
        return f;
    }

    /** Generate and validate every action; the counts seen
     *  (uturn_plan_walk()). */
    Stats walk() const
    {
        Stats s;
        uturn_error_t e = detail::error_out();
        detail::check(uturn_plan_walk(get(), &s, &e), e);
        return s;
    }

    /** Write the plan as plan text to @p stream (uturn_plan_write()). */
    void write(std::FILE *stream) const
    {
        uturn_error_t e = detail::error_out();
        detail::check(uturn_plan_write(get(), stream, &e), e);
    }

    /** The plan as plan text (through a std::tmpfile()). */
    std::string text() const
    {
        std::unique_ptr<std::FILE, detail::FileClose> f(std::tmpfile());
        if (!f)
            throw Error(UTURN_E_IO, "no temporary file for the plan text");
        write(f.get());
        return detail::slurp(f.get());
    }

    /** A new cursor at the first action: `for (auto &a : plan.actions())`. */
    Cursor actions(const uturn_allocator_t *alloc = nullptr) const;

  private:
    std::unique_ptr<uturn_plan_t, detail::PlanFree> handle_;
};

/**
 * A position in a plan's action stream (uturn_cursor_t), owned, and a
 * single-pass range over the actions still to come: a range-for reads
 * them in batches of batch_size (uturn_cursor_read()), never the whole
 * plan. next(), read() and the range may be mixed: each hands out the
 * actions in order, exactly once. Move-only; the plan must outlive it.
 */
class Cursor
{
  public:
    /** Actions one batch of the range reads at most. */
    static constexpr std::size_t batch_size = 256;

    /** The input iterator of the range; a default one is the end. */
    class iterator
    {
      public:
        /** Standard iterator traits. */
        using iterator_category = std::input_iterator_tag;
        /** Standard iterator traits. */
        using value_type = Action;
        /** Standard iterator traits. */
        using difference_type = std::ptrdiff_t;
        /** Standard iterator traits. */
        using pointer = const Action *;
        /** Standard iterator traits. */
        using reference = const Action &;

        /** The end. */
        iterator() noexcept = default;

        /** At the next action of @p cursor (the end if there is none). */
        explicit iterator(Cursor *cursor) : cursor_(cursor)
        {
            ++*this;
        }

        /** The current action; valid until the iterator moves. */
        reference operator*() const noexcept
        {
            return current_;
        }

        /** The current action's fields. */
        pointer operator->() const noexcept
        {
            return &current_;
        }

        /** On to the next action (it is read now, not before). */
        iterator &operator++()
        {
            if (cursor_ != nullptr && !cursor_->next(current_))
                cursor_ = nullptr;
            return *this;
        }

        /** On to the next action. */
        void operator++(int)
        {
            ++*this;
        }

        /** Both at the end, or both on the same cursor. */
        friend bool operator==(const iterator &a, const iterator &b) noexcept
        {
            return a.cursor_ == b.cursor_;
        }

        /** Not operator==. */
        friend bool operator!=(const iterator &a, const iterator &b) noexcept
        {
            return !(a == b);
        }

      private:
        Cursor *cursor_ = nullptr;
        Action current_{};
    };

    /** An empty cursor (no handle). */
    Cursor() noexcept = default;

    /** Takes @p other's handle and the actions it read ahead. */
    Cursor(Cursor &&other) noexcept
        : handle_(std::move(other.handle_)), batch_(std::move(other.batch_)),
          pos_(std::exchange(other.pos_, 0)),
          count_(std::exchange(other.count_, 0))
    {
    }

    /** Frees this cursor, then takes @p other's (as the constructor). */
    Cursor &operator=(Cursor &&other) noexcept
    {
        if (this != &other) {
            handle_ = std::move(other.handle_);
            batch_  = std::move(other.batch_);
            pos_    = std::exchange(other.pos_, 0);
            count_  = std::exchange(other.count_, 0);
        }
        return *this;
    }

    /** A cursor at @p plan's first action (uturn_cursor_create()). */
    explicit Cursor(const Plan &plan, const uturn_allocator_t *alloc = nullptr)
    {
        uturn_cursor_t *raw = nullptr;
        detail::check(uturn_cursor_create(plan.get(), alloc, &raw),
                      "uturn_cursor_create");
        handle_.reset(raw);
    }

    /** Whether a cursor is held. */
    explicit operator bool() const noexcept
    {
        return handle_ != nullptr;
    }

    /** The C handle (still owned by this Cursor), or NULL. Reading from
     *  it directly skips any actions this Cursor has read ahead. */
    uturn_cursor_t *get() const noexcept
    {
        return handle_.get();
    }

    /** The next action into @p out; false at the end (out left alone). */
    bool next(Action &out)
    {
        if (pos_ == count_ && !fill())
            return false;
        out = batch_[pos_++];
        return true;
    }

    /** Up to @p capacity next actions into @p out; 0 only at the end.
     *  Throws Error (as next() does) where an online plan stopped before
     *  its end was said (uturn_cursor_read()). */
    std::size_t read(Action *out, std::size_t capacity)
    {
        if (pos_ == count_) {
            std::size_t n = 0;
            detail::check(uturn_cursor_read(held(), out, capacity, &n),
                          "uturn_cursor_read");
            return n;
        }
        std::size_t n = 0;
        for (; n < capacity && pos_ < count_; n++)
            out[n] = batch_[pos_++];
        return n;
    }

    /**
     * Online plans: the live state is the last (uturn_cursor_end()); right
     * after the advance of the first sweep just handed out. Throws Error
     * (UTURN_E_INVALID_ARG) while actions read ahead are still waiting.
     */
    void end_sweep()
    {
        if (pos_ != count_)
            throw Error(UTURN_E_INVALID_ARG,
                        "uturn_cursor_end: actions are still waiting");
        detail::check(uturn_cursor_end(held()), "uturn_cursor_end");
    }

    /** Online plans with a byte budget: the size of x_step
     *  (uturn_cursor_set_size()). */
    void set_size(std::uint64_t step, std::uint64_t bytes)
    {
        detail::check(uturn_cursor_set_size(held(), step, bytes),
                      "uturn_cursor_set_size");
    }

    /** An online plan's realised counts (uturn_cursor_stats()). */
    Stats stats() const
    {
        Stats s;
        detail::check(uturn_cursor_stats(get(), &s), "uturn_cursor_stats");
        return s;
    }

    /** The range's start: reads the next action. */
    iterator begin()
    {
        return iterator(this);
    }

    /** The range's end. */
    iterator end() noexcept
    {
        return iterator();
    }

  private:
    uturn_cursor_t *held() const
    {
        if (!handle_)
            throw Error(UTURN_E_INVALID_ARG, "the cursor is empty");
        return handle_.get();
    }

    /* The next batch; false at the end. During an online plan's first
     * sweep a batch ends at the next advance, so end_sweep() stays
     * possible right after it. */
    bool fill()
    {
        batch_.resize(batch_size);
        pos_   = 0;
        count_ = 0;
        detail::check(
            uturn_cursor_read(held(), batch_.data(), batch_.size(), &count_),
            "uturn_cursor_read");
        return count_ > 0;
    }

    std::unique_ptr<uturn_cursor_t, detail::CursorFree> handle_;
    std::vector<Action> batch_;
    std::size_t pos_   = 0;
    std::size_t count_ = 0;
};

inline Cursor Plan::actions(const uturn_allocator_t *alloc) const
{
    return Cursor(*this, alloc);
}

/* ------------------------------------------------------------------------ */
/* Validation and streaming text                                            */
/* ------------------------------------------------------------------------ */

/** A validator of any action stream (uturn_validator_t), owned. */
class Validator
{
  public:
    /** An empty validator (no handle). */
    Validator() noexcept = default;

    /** Validate a stream for @p problem (uturn_validator_create()). */
    explicit Validator(const Problem &problem,
                       const uturn_allocator_t *alloc = nullptr)
    {
        uturn_validator_t *raw = nullptr;
        uturn_error_t e        = detail::error_out();
        detail::check(uturn_validator_create(&problem, alloc, &raw, &e), e);
        handle_.reset(raw);
    }

    /** Whether a validator is held. */
    explicit operator bool() const noexcept
    {
        return handle_ != nullptr;
    }

    /** The C handle (still owned), or NULL. */
    uturn_validator_t *get() const noexcept
    {
        return handle_.get();
    }

    /** Apply @p action; a broken rule throws (uturn_validator_push()). */
    void push(const Action &action)
    {
        uturn_error_t e = detail::error_out();
        detail::check(uturn_validator_push(get(), &action, &e), e);
    }

    /** The end-of-plan rules, and the counts seen
     *  (uturn_validator_finish()). */
    Stats finish()
    {
        Stats s;
        uturn_error_t e = detail::error_out();
        detail::check(uturn_validator_finish(get(), &s, &e), e);
        return s;
    }

    /** Level @p level's counts so far (uturn_validator_level_stats()). */
    LevelStats level_stats(std::uint64_t level) const
    {
        LevelStats s;
        detail::check(uturn_validator_level_stats(get(), level, &s),
                      "uturn_validator_level_stats");
        return s;
    }

    /** An online stream's n, once known (uturn_validator_set_steps()). */
    void set_steps(std::uint64_t steps)
    {
        uturn_error_t e = detail::error_out();
        detail::check(uturn_validator_set_steps(get(), steps, &e), e);
    }

  private:
    std::unique_ptr<uturn_validator_t, detail::ValidatorFree> handle_;
};

/** A reader of plan text in pieces (uturn_reader_t), owned. */
class Reader
{
  public:
    /** A new reader (uturn_reader_create()). */
    explicit Reader(const uturn_allocator_t *alloc = nullptr)
    {
        uturn_reader_t *raw = nullptr;
        uturn_error_t e     = detail::error_out();
        detail::check(uturn_reader_create(alloc, &raw, &e), e);
        handle_.reset(raw);
    }

    /** Whether a reader is held (false once moved from). */
    explicit operator bool() const noexcept
    {
        return handle_ != nullptr;
    }

    /** The C handle (still owned), or NULL. */
    uturn_reader_t *get() const noexcept
    {
        return handle_.get();
    }

    /** Read the next piece of text, split anywhere (uturn_reader_feed()). */
    void feed(std::string_view text)
    {
        uturn_error_t e = detail::error_out();
        detail::check(uturn_reader_feed(get(), text.data(), text.size(), &e),
                      e);
    }

    /** The text has ended: its counts (uturn_reader_finish()). */
    Stats finish()
    {
        Stats s;
        uturn_error_t e = detail::error_out();
        detail::check(uturn_reader_finish(get(), &s, &e), e);
        return s;
    }

  private:
    std::unique_ptr<uturn_reader_t, detail::ReaderFree> handle_;
};

/* ------------------------------------------------------------------------ */
/* The executor                                                             */
/* ------------------------------------------------------------------------ */

/**
 * Runs models to plans and owns the slot storage (uturn_executor_t).
 * Move-only; a moved-from Executor is empty. The user storage callables
 * given at construction are kept inside it (behind pointers that do not
 * move with it) for as long as it lives. Destroying it frees the C
 * executor; should that call a user level's close which throws, the
 * exception is dropped (a destructor must not throw).
 */
class Executor
{
  public:
    /** An executor with the defaults (uturn_executor_open(NULL)). */
    Executor() : Executor(ExecutorOptions())
    {
    }

    /** An executor with @p options (uturn_executor_open()). */
    explicit Executor(const ExecutorOptions &options)
        : state_(std::make_unique<State>())
    {
        std::vector<uturn_storage_t> levels = c_levels(options.levels);
        uturn_executor_options_t o;
        uturn_executor_options_init(&o);
        o.alloc               = options.alloc;
        o.slot_alloc          = options.slot_alloc;
        o.levels              = levels.empty() ? nullptr : levels.data();
        o.level_count         = levels.size();
        o.io_buffers          = options.io_buffers;
        uturn_executor_t *raw = nullptr;
        uturn_error_t e       = detail::error_out();
        detail::check(uturn_executor_open(&o, &raw, &e), e);
        handle_.reset(raw);
    }

    /** An executor whose bookkeeping and slots both come from @p alloc
     *  (uturn_executor_create(); nullptr: malloc and its own pages). */
    static Executor with_allocator(const uturn_allocator_t *alloc)
    {
        Executor ex(Empty{});
        uturn_executor_t *raw = nullptr;
        uturn_error_t e       = detail::error_out();
        detail::check(uturn_executor_create(alloc, &raw, &e), e);
        ex.handle_.reset(raw);
        return ex;
    }

    /** Moves the handle and the kept callables. */
    Executor(Executor &&) noexcept = default;

    /** Frees what this executor held first, then takes @p other's. */
    Executor &operator=(Executor &&other) noexcept
    {
        if (this != &other) {
            handle_.reset(); /* it may still call its storages' close */
            state_  = std::move(other.state_);
            handle_ = std::move(other.handle_);
        }
        return *this;
    }

    /** Whether an executor is held. */
    explicit operator bool() const noexcept
    {
        return handle_ != nullptr;
    }

    /** The C handle (still owned), or NULL. */
    uturn_executor_t *get() const noexcept
    {
        return handle_.get();
    }

    /**
     * Plan @p problem at the real slot cost, levels resolved
     * (uturn_executor_plan()).
     */
    Plan plan(const Problem &problem) const
    {
        uturn_plan_t *raw = nullptr;
        uturn_error_t e   = detail::error_out();
        detail::check(uturn_executor_plan(get(), &problem, &raw, &e), e);
        return Plan(raw);
    }

    /**
     * Run @p model to @p plan (uturn_executor_run()) and return the counts
     * as they happened. @p report, when given, is filled on success and on
     * failure. If a callback threw, the run stopped there, the library
     * freed everything, and the first exception caught is rethrown here as
     * it was thrown (whatever the status); otherwise a failing status
     * throws Error. Either way the executor may run again.
     */
    Stats run(const Plan &plan, const Model &model,
              const RunOptions &options = RunOptions(),
              Report *report            = nullptr)
    {
        detail::Catcher &catcher = held_state().catcher;
        detail::RunContext ctx{&model, &options, &catcher};
        const uturn_model_t m       = detail::c_model(ctx);
        const uturn_run_options_t o = detail::c_options(ctx);
        if (options.sweeps_on_request &&
            (options.progress || options.on_progress))
            throw std::invalid_argument(
                "uturn::Executor::run: sweeps_on_request with progress "
                "callbacks is not supported by uturn.hpp");
        Stats seen;
        Report own;
        Report *r       = report != nullptr ? report : &own;
        uturn_error_t e = detail::error_out();
        catcher.caught  = nullptr;
        const uturn_status_t st =
            uturn_executor_run(get(), plan.get(), &m, &o, &seen, r, &e);
        catcher.rethrow();
        detail::check(st, e);
        state_->forward =
            r->trajectory_held ? ForwardSide(model) : ForwardSide();
        return seen;
    }

    /**
     * run() on a Plan that would not outlive the call (a temporary): with
     * sweeps_on_request the executor keeps it, for the sweeps to come,
     * until the next run on a kept Plan or the executor's end.
     */
    Stats run(Plan &&plan, const Model &model,
              const RunOptions &options = RunOptions(),
              Report *report            = nullptr)
    {
        if (!options.sweeps_on_request)
            return run(static_cast<const Plan &>(plan), model, options, report);
        Plan kept(std::move(plan));
        const Stats seen =
            run(static_cast<const Plan &>(kept), model, options, report);
        /* the run succeeded, so no trajectory held on the plan kept before */
        held_state().plan = std::move(kept);
        return seen;
    }

    /**
     * The next sweep of a run started with sweeps_on_request
     * (uturn_executor_sweep()): @p model's turn and adjoint may differ
     * from the run's, its forward and state may not. Its forward, save,
     * load and forward_record must each be the same callable as the
     * run's (Callback::same_as(): the run's Model or a copy of it passes,
     * as does one made again from the same function pointer or lambda
     * object), and its state_size one of the same type; otherwise this
     * throws Error (UTURN_E_INVALID_ARG) naming the field, the trajectory
     * kept. Keep the run's Model and change its turn and adjoint.
     * Returns the counts of the whole run so far; throws as run() does.
     */
    Stats sweep(const Model &model, Report *report = nullptr)
    {
        detail::Catcher &catcher = held_state().catcher;
        if (const char *field = state_->forward.not_in(model))
            throw Error(UTURN_E_INVALID_ARG,
                        (std::string("a further sweep takes the run's "
                                     "forward: its model's ") +
                         field +
                         " is another callable than the run's (keep the "
                         "run's Model, or a copy, and change its turn and "
                         "adjoint)")
                            .c_str());
        const RunOptions none;
        detail::RunContext ctx{&model, &none, &catcher};
        const uturn_model_t m = detail::c_model(ctx);
        Stats seen;
        Report own;
        Report *r               = report != nullptr ? report : &own;
        uturn_error_t e         = detail::error_out();
        catcher.caught          = nullptr;
        const uturn_status_t st = uturn_executor_sweep(get(), &m, &seen, r, &e);
        if (st == UTURN_OK && !r->trajectory_held)
            state_->forward = ForwardSide(); /* the last sweep is done */
        catcher.rethrow();
        detail::check(st, e);
        return seen;
    }

    /** Drop a trajectory held for further sweeps (uturn_executor_release()). */
    void release() noexcept
    {
        uturn_executor_release(get());
        if (state_)
            state_->forward = ForwardSide();
    }

    /** Give back the storage kept between runs (uturn_executor_trim()). */
    void trim() noexcept
    {
        uturn_executor_trim(get());
    }

    /** Bytes of slot storage held now (uturn_executor_held_bytes()). */
    std::uint64_t held_bytes() const noexcept
    {
        return uturn_executor_held_bytes(get());
    }

    /** Storage levels beyond memory this executor was made with. */
    std::uint64_t level_count() const noexcept
    {
        return state_ ? state_->level_count : 0;
    }

    /** The slots level @p level of @p problem's levels holds here, as
     *  plan() resolves it (uturn_executor_level_slots()). */
    std::uint64_t level_slots(const uturn_problem_t &problem,
                              std::uint64_t level) const
    {
        std::uint64_t slots = 0;
        uturn_error_t e;
        uturn_error_init(&e);
        detail::check(
            uturn_executor_level_slots(get(), &problem, level, &slots, &e), e);
        return slots;
    }

    /** The last run's figures for level @p level (0: memory;
     *  uturn_executor_level_report()). */
    LevelReport level_report(std::uint64_t level) const
    {
        LevelReport r;
        detail::check(uturn_executor_level_report(get(), level, &r),
                      "uturn_executor_level_report");
        return r;
    }

    /** What a slot of @p state_bytes costs here
     *  (uturn_executor_slot_cost()). */
    SlotCost slot_cost(std::uint64_t state_bytes) const
    {
        SlotCost c;
        detail::check(uturn_executor_slot_cost(get(), state_bytes, &c),
                      "uturn_executor_slot_cost");
        return c;
    }

    /** The stride of one slot of @p state_bytes
     *  (uturn_executor_slot_bytes()). */
    std::uint64_t slot_bytes(std::uint64_t state_bytes) const
    {
        std::uint64_t b = 0;
        detail::check(uturn_executor_slot_bytes(get(), state_bytes, &b),
                      "uturn_executor_slot_bytes");
        return b;
    }

    /** The most slots of @p state_bytes that @p budget holds
     *  (uturn_executor_capacity()). */
    std::uint64_t capacity(std::uint64_t state_bytes,
                           std::uint64_t budget_bytes) const
    {
        std::uint64_t slots = 0;
        detail::check(
            uturn_executor_capacity(get(), state_bytes, budget_bytes, &slots),
            "uturn_executor_capacity");
        return slots;
    }

    /** The least budget holding @p slots slots of @p state_bytes
     *  (uturn_executor_budget()). */
    std::uint64_t budget(std::uint64_t state_bytes, std::uint64_t slots) const
    {
        std::uint64_t b = 0;
        detail::check(uturn_executor_budget(get(), state_bytes, slots, &b),
                      "uturn_executor_budget");
        return b;
    }

  private:
    /* The callables of a run's forward side, kept while it may be swept
     * again: a further sweep's model must have the same (C sees only this
     * header's trampolines). */
    struct ForwardSide {
        Callback<std::uint64_t> forward;
        Callback<std::uint64_t, void *, std::uint64_t> save;
        Callback<std::uint64_t, const void *, std::uint64_t> load;
        Callback<std::uint64_t, void *, bool> forward_record;
        const std::type_info *state_size = nullptr;
        bool held                        = false; /* a trajectory is */

        ForwardSide() = default;
        explicit ForwardSide(const Model &m)
            : forward(m.forward), save(m.save), load(m.load),
              forward_record(m.forward_record),
              state_size(m.state_size ? &m.state_size.target_type() : nullptr),
              held(true)
        {
        }

        /* The first field of @p m that is not the run's, or nullptr (also
         * when no trajectory is held: the C library says so). */
        const char *not_in(const Model &m) const noexcept
        {
            if (!held)
                return nullptr;
            if (!forward.same_as(m.forward))
                return "forward";
            if (!save.same_as(m.save))
                return "save";
            if (!load.same_as(m.load))
                return "load";
            if (!forward_record.same_as(m.forward_record))
                return "forward_record";
            const std::type_info *t =
                m.state_size ? &m.state_size.target_type() : nullptr;
            if ((t == nullptr) != (state_size == nullptr) ||
                (t != nullptr && *t != *state_size))
                return "state_size";
            return nullptr;
        }
    };

    /* What the C executor points into: it never moves. */
    struct State {
        detail::Catcher catcher;
        ForwardSide forward; /* the last run's with sweeps_on_request */
        Plan plan;           /* a temporary Plan kept for its sweeps */
        std::vector<std::unique_ptr<detail::StorageLink>> links;
        std::vector<std::string> directories;
        std::uint64_t level_count = 0;
    };

    struct Empty {
    };

    explicit Executor(Empty) : state_(std::make_unique<State>())
    {
    }

    State &held_state() const
    {
        if (!state_ || !handle_)
            throw Error(UTURN_E_INVALID_ARG, "the executor is empty");
        return *state_;
    }

    /* The C levels for @p levels; user callbacks get a link each. */
    std::vector<uturn_storage_t> c_levels(const std::vector<Storage> &levels)
    {
        std::vector<uturn_storage_t> out(levels.size());
        state_->directories.reserve(levels.size());
        for (std::size_t k = 0; k < levels.size(); k++) {
            uturn_storage_t &c = out[k];
            uturn_storage_init_size(&c, sizeof(uturn_storage_t));
            c.kind        = levels[k].kind;
            c.synchronous = levels[k].synchronous;
            state_->directories.push_back(levels[k].directory);
            if (!levels[k].directory.empty())
                c.directory = state_->directories.back().c_str();
            if (levels[k].kind == UTURN_STORAGE_USER) {
                state_->links.push_back(
                    detail::make_link(levels[k].callbacks, &state_->catcher));
                c.callbacks = &state_->links.back()->c;
            }
        }
        state_->level_count = levels.size();
        return out;
    }

    /* Declared first, destroyed last: the C executor may still call a
     * storage's close while it is freed. */
    std::unique_ptr<State> state_;
    std::unique_ptr<uturn_executor_t, detail::ExecutorFree> handle_;
};

} // namespace uturn

#endif
