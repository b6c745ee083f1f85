#define _GNU_SOURCE /* mremap, mkdtemp, nftw */
/*
 * The budget invariant (docs/model.md section 6, uturn_executor_trim())
 * on every slot storage backend and every kind of storage level, with the
 * bytes held measured independently of the library's own report:
 *
 *  - "pages" (the default, what users get): the library's mmap, mremap,
 *    munmap, malloc and free go through this test's wrappers (linked with
 *    -Wl,--wrap, tests/CMakeLists.txt), which add up what the kernel and
 *    malloc were asked for and check it after every change; the
 *    executor's bookkeeping uses an allocator of its own that bypasses
 *    them, so what they count is the slot storage;
 *  - "allocator": a counting slot allocator, checked at every allocation
 *    (and the wrappers must then see nothing held at all);
 *  - a file level: the run's slots file, its size and the blocks it
 *    takes on disk, against the level's slots times the stride;
 *  - a user level: the bytes and ids its callbacks hold, and what open()
 *    is told, against the level's capacity.
 *
 * Long random sequences of runs on one executor per backend and level
 * set mix every planner, uniform and per-step sizes, contiguous and
 * save/load states, hrevolve and online plans over memory, a file level
 * (overlapped or synchronous) and a user level, budgets that rise and
 * fall, runs that fail midway and trims. The promises checked: while a
 * run's callbacks execute, memory held for slots is at most that run's
 * budget (the I/O buffers included); between runs it is at most the last
 * run's budget, or exactly its peak after a run without one; a plan made
 * by uturn_executor_plan() for a budget is never refused for it; the
 * report's measured_peak_bytes is what was held, and held_bytes() what is
 * held; every gradient equals a store-all reference bit for bit.
 */
#include "budget_chain.h"
#include "scratch_dir.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <uturn.h>

#define ULL(x) ((unsigned long long)(x))
#define MAX_N  BC_MAX_N
#define WIDTH  BC_WIDTH

/* ---- what the library maps and mallocs ---------------------------------- */

void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd,
                  off_t off);
void *__real_mremap(void *old, size_t old_len, size_t new_len, int flags, ...);
int __real_munmap(void *addr, size_t len);
void *__real_malloc(size_t size);
void __real_free(void *ptr);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd,
                  off_t off);
void *__wrap_mremap(void *old, size_t old_len, size_t new_len, int flags, ...);
int __wrap_munmap(void *addr, size_t len);
void *__wrap_malloc(size_t size);
void __wrap_free(void *ptr);

#define HELD_BLOCKS 64

/* Every block the library holds through the wrappers; their sum is
 * checked against `limit` after every change (the I/O thread may change
 * nothing here, but the lock costs little). */
static struct {
    pthread_mutex_t mu;
    uintptr_t at[HELD_BLOCKS];
    size_t len[HELD_BLOCKS];
    size_t count;
    uint64_t bytes, limit, over, over_bytes;
    bool lost; /* a block the table could not follow */
} held = {.mu = PTHREAD_MUTEX_INITIALIZER, .limit = UINT64_MAX};

static void held_note(void)
{
    if (held.bytes > held.limit) {
        held.over += 1;
        held.over_bytes = held.bytes;
    }
}

static void held_add(void *p, size_t len)
{
    pthread_mutex_lock(&held.mu);
    if (held.count == HELD_BLOCKS) {
        held.lost = true;
    } else {
        held.at[held.count]    = (uintptr_t)p;
        held.len[held.count++] = len;
        held.bytes += len;
        held_note();
    }
    pthread_mutex_unlock(&held.mu);
}

/* Forget the block at p (false: not one of ours); its length to *len. */
static bool held_drop(void *p, size_t *len)
{
    pthread_mutex_lock(&held.mu);
    bool found = false;
    for (size_t i = 0; i < held.count && !found; i++) {
        if (held.at[i] != (uintptr_t)p)
            continue;
        found = true;
        held.bytes -= held.len[i];
        *len = held.len[i];
        held.count -= 1;
        held.at[i]  = held.at[held.count];
        held.len[i] = held.len[held.count];
    }
    pthread_mutex_unlock(&held.mu);
    return found;
}

static uint64_t held_bytes_now(void)
{
    pthread_mutex_lock(&held.mu);
    const uint64_t b = held.bytes;
    pthread_mutex_unlock(&held.mu);
    return b;
}

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd,
                  off_t off)
{
    void *p = __real_mmap(addr, len, prot, flags, fd, off);
    if (p != MAP_FAILED)
        held_add(p, len);
    return p;
}

void *__wrap_mremap(void *old, size_t old_len, size_t new_len, int flags, ...)
{
    void *fixed = NULL;
    if (flags & MREMAP_FIXED) {
        va_list args;
        va_start(args, flags);
        fixed = va_arg(args, void *);
        va_end(args);
    }
    void *p    = flags & MREMAP_FIXED
                     ? __real_mremap(old, old_len, new_len, flags, fixed)
                     : __real_mremap(old, old_len, new_len, flags);
    size_t was = 0;
    if (p != MAP_FAILED) {
        if (!held_drop(old, &was) || was != old_len)
            held.lost = true;
        held_add(p, new_len);
    }
    return p;
}

int __wrap_munmap(void *addr, size_t len)
{
    size_t was = 0;
    if (!held_drop(addr, &was) || was != len)
        held.lost = true;
    return __real_munmap(addr, len);
}

void *__wrap_malloc(size_t size)
{
    void *p = __real_malloc(size);
    if (p != NULL)
        held_add(p, size);
    return p;
}

void __wrap_free(void *ptr)
{
    size_t was = 0;
    if (ptr != NULL)
        held_drop(ptr, &was); /* a block malloc'd elsewhere: not ours */
    __real_free(ptr);
}

/* The executor's bookkeeping: past the wrappers, counted apart. */
static void *books_alloc(void *user, size_t size)
{
    (void)user;
    return __real_malloc(size);
}

static void books_free(void *user, void *ptr, size_t size)
{
    (void)user;
    (void)size;
    __real_free(ptr);
}

/* The "allocator" backend's slots: live bytes, checked at every
 * allocation against the same limit. */
struct slot_counter {
    uint64_t live, blocks, over, mismatches;
};

static void *slot_alloc(void *user, size_t size)
{
    struct slot_counter *c = user;
    unsigned char *p       = __real_malloc(size + 16);
    if (p == NULL)
        return NULL;
    memcpy(p, &size, sizeof size);
    c->live += size;
    c->blocks += 1;
    c->over += c->live > held.limit;
    return p + 16;
}

static void slot_free(void *user, void *ptr, size_t size)
{
    struct slot_counter *c = user;
    if (ptr == NULL)
        return;
    unsigned char *p = (unsigned char *)ptr - 16;
    size_t recorded  = 0;
    memcpy(&recorded, p, sizeof recorded);
    c->mismatches += recorded != size;
    c->live -= recorded;
    c->blocks -= 1;
    __real_free(p);
}

/* ---- an executor, its levels, and what they hold ------------------------ */

enum level_kind { NONE, FILE_OVERLAPPED, FILE_SYNC, USER };

/* A user level: states kept in place, by id. */
#define SHELF_IDS (MAX_N + 2)
struct shelf {
    unsigned char data[SHELF_IDS][8 * WIDTH];
    uint64_t bytes[SHELF_IDS];
    bool used[SHELF_IDS];
    uint64_t held, held_bytes, opens, closes, cap, cap_bytes, over;
    uint64_t puts; /* over the whole sequence */
};

struct rig {
    bool pages; /* else the allocator backend */
    enum level_kind kinds[2];
    struct slot_counter slots;
    struct shelf shelf;
    char parent[PATH_MAX];
    uturn_executor_t *ex;
};

/* Memory held for slots, measured here: the wrappers' sum, and the slot
 * allocator's with that backend. */
static uint64_t memory_held(const struct rig *r)
{
    return held_bytes_now() + (r->pages ? 0 : r->slots.live);
}

static int shelf_open(void *user, uint64_t ids, uint64_t bytes)
{
    struct shelf *s = user;
    s->opens += 1;
    s->over += ids > s->cap || bytes > s->cap_bytes || ids > SHELF_IDS;
    return 0;
}

static int shelf_put(void *user, uint64_t id, uint64_t step, const void *src,
                     uint64_t bytes)
{
    struct shelf *s = user;
    (void)step;
    if (id >= SHELF_IDS || bytes > sizeof s->data[0] || s->used[id])
        return 1;
    memcpy(s->data[id], src, (size_t)bytes);
    s->puts += 1;
    s->used[id]  = true;
    s->bytes[id] = bytes;
    s->held += 1;
    s->held_bytes += bytes;
    s->over += s->held > s->cap || s->held_bytes > s->cap_bytes;
    return 0;
}

static int shelf_get(void *user, uint64_t id, uint64_t step, void *dst,
                     uint64_t bytes)
{
    struct shelf *s = user;
    (void)step;
    if (id >= SHELF_IDS || !s->used[id] || s->bytes[id] != bytes)
        return 1;
    memcpy(dst, s->data[id], (size_t)bytes);
    return 0;
}

static void shelf_drop(void *user, uint64_t id)
{
    struct shelf *s = user;
    if (id >= SHELF_IDS || !s->used[id])
        return;
    s->used[id] = false;
    s->held -= 1;
    s->held_bytes -= s->bytes[id];
}

static void shelf_close(void *user)
{
    struct shelf *s = user;
    s->closes += 1;
    for (uint64_t id = 0; id < SHELF_IDS; id++)
        shelf_drop(s, id);
}

static void rig_open(struct rig *r, bool pages, enum level_kind one,
                     enum level_kind two)
{
    memset(r, 0, sizeof *r);
    r->pages    = pages;
    r->kinds[0] = one;
    r->kinds[1] = two;
    cr_assert(scratch_make("/tmp", r->parent));
    static uturn_storage_callbacks_t calls;
    memset(&calls, 0, sizeof calls);
    calls.size  = sizeof calls;
    calls.user  = &r->shelf;
    calls.open  = shelf_open;
    calls.put   = shelf_put;
    calls.get   = shelf_get;
    calls.drop  = shelf_drop;
    calls.close = shelf_close;
    uturn_storage_t lv[2];
    for (int k = 0; k < 2; k++) {
        uturn_storage_init(&lv[k]);
        lv[k].kind =
            r->kinds[k] == USER ? UTURN_STORAGE_USER : UTURN_STORAGE_FILE;
        lv[k].directory   = r->parent;
        lv[k].synchronous = r->kinds[k] == FILE_SYNC;
        lv[k].callbacks   = &calls;
    }
    const uturn_allocator_t books = {books_alloc, books_free, NULL};
    const uturn_allocator_t slots = {slot_alloc, slot_free, &r->slots};
    uturn_executor_options_t o;
    uturn_executor_options_init(&o);
    o.alloc       = &books;
    o.slot_alloc  = pages ? NULL : &slots;
    o.levels      = lv;
    o.level_count = one == NONE ? 0 : two == NONE ? 1 : 2;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_open(&o, &r->ex, &err), UTURN_OK, "%s",
                 err.message);
}

static void rig_close(struct rig *r)
{
    uturn_executor_free(r->ex);
    cr_assert_eq(held_bytes_now(), 0, "the executor gave back its pages");
    cr_assert_not(held.lost, "a block the wrappers could not follow");
    cr_assert_eq(r->slots.blocks, 0);
    cr_assert_eq(r->slots.mismatches, 0);
    cr_assert_eq(scratch_count(r->parent), 0, "a run left files");
    scratch_remove(r->parent);
}

/* ---- the model ---------------------------------------------------------- */

struct model {
    struct bc_chain chain; /* first: the callbacks' user */
    uint64_t calls, fail_at;
    struct rig *rig;
    uint64_t limit;       /* memory for slots may hold at most this */
    uint64_t file_cap;    /* bytes a file level may hold, or 0 */
    uint64_t most;        /* the most memory seen in a callback */
    uint64_t files_seen;  /* callbacks that found a slots file */
    char slots[PATH_MAX]; /* the run's slots file, once found */
    uint64_t violations;
    char what[200]; /* the first violation */
};

static void violated(struct model *m, const char *what, uint64_t got,
                     uint64_t cap)
{
    if (m->violations++ == 0)
        snprintf(m->what, sizeof m->what, "%s: %llu bytes, at most %llu", what,
                 ULL(got), ULL(cap));
}

/* The run's slots file, when a file level is in the run: its length and
 * its blocks on disk within the level's slots. */
static void watch_file(struct model *m)
{
    char run[PATH_MAX];
    if (m->file_cap == 0)
        return;
    if (m->slots[0] == '\0') { /* looked for once a run */
        if (scratch_find(m->rig->parent, "uturn-", run) != 1)
            return;
        scratch_join(m->slots, run, "slots");
    }
    struct stat s;
    if (stat(m->slots, &s) != 0)
        return;
    m->files_seen += 1;
    const uint64_t size = (uint64_t)s.st_size;
    const uint64_t blk  = s.st_blksize > 0 ? (uint64_t)s.st_blksize : 4096;
    const uint64_t disk = (uint64_t)s.st_blocks * 512;
    if (size > m->file_cap)
        violated(m, "the slots file's length", size, m->file_cap);
    if (disk > (m->file_cap + blk - 1) / blk * blk)
        violated(m, "the slots file's blocks", disk, m->file_cap);
}

static int watch(struct bc_chain *chain)
{
    struct model *m    = (struct model *)(void *)chain;
    const uint64_t mem = memory_held(m->rig);
    m->most            = mem > m->most ? mem : m->most;
    if (mem > m->limit)
        violated(m, "memory for slots inside a callback", mem, m->limit);
    watch_file(m);
    m->calls += 1;
    return m->fail_at != 0 && m->calls == m->fail_at ? 5 : 0;
}

/* ---- random runs -------------------------------------------------------- */

enum kind { PLAIN, ONLINE, HREVOLVE_LEVELS, ONLINE_LEVELS };

struct case_ {
    enum kind kind;
    uturn_planner_t planner;
    uint64_t n, slots, budget, width, fail_at, stop_at;
    bool contiguous, sized, plan_sizes;
    uint64_t levels, level_slots[2], cost[2];
};

static uint64_t pick(uint64_t *seed, uint64_t bound)
{
    *seed = *seed * 6364136223846793005u + 1442695040888963407u;
    return (*seed >> 33) % bound;
}

/* Budgets rising and falling: none, too small, or up to 16 states of the
 * largest size per step (far past a page, and below one). */
static uint64_t random_budget(uint64_t *seed, uint64_t n)
{
    const uint64_t r = pick(seed, 10);
    return r == 0   ? 0
           : r == 1 ? 1 + pick(seed, 200)
                    : 16 * (1 + pick(seed, 16 * WIDTH * n / 8));
}

static void random_levels(uint64_t *seed, struct case_ *c, uint64_t most)
{
    c->levels         = most == 0 ? 1 : 2 + pick(seed, most);
    c->level_slots[0] = 1 + pick(seed, c->n + 2);
    c->level_slots[1] = 1 + pick(seed, 16);
    c->cost[0]        = 1 + pick(seed, 3);
    c->cost[1]        = c->cost[0] + pick(seed, 3);
    c->sized          = false;
    c->plan_sizes     = false;
    if (c->kind != ONLINE_LEVELS)
        return;
    /* Few slots below the last level: online's period search plans
     * hrevolve over up to 2 C(c + 3, 3) steps for c of them. */
    const uint64_t stride = (8 * c->width + 15) / 16 * 16;
    c->slots              = 1 + pick(seed, 6);
    if (c->budget != 0)
        c->budget = stride * (1 + pick(seed, 8)) + pick(seed, 2) * 8;
    if (c->levels == 3)
        c->level_slots[0] = 1 + pick(seed, 6);
}

static struct case_ random_case(uint64_t *seed, uint64_t level_count)
{
    static const uturn_planner_t planners[] = {
        UTURN_PLANNER_STORE_ALL, UTURN_PLANNER_PERIODIC, UTURN_PLANNER_SQRT,
        UTURN_PLANNER_REVOLVE, UTURN_PLANNER_DP};
    struct case_ c = {0};
    c.kind         = (enum kind)pick(seed, level_count == 0 ? 2 : 4);
    c.planner      = planners[pick(seed, 5)];
    c.n            = 1 + pick(seed, MAX_N);
    c.slots        = 1 + pick(seed, c.n + 2);
    c.width        = 1 + pick(seed, WIDTH);
    c.contiguous   = pick(seed, 3) == 0;
    c.sized        = !c.contiguous && pick(seed, 2) == 0;
    c.plan_sizes   = c.sized && c.planner == UTURN_PLANNER_DP;
    c.budget       = random_budget(seed, c.n);
    c.fail_at      = pick(seed, 4) == 0 ? 1 + pick(seed, 6 * c.n) : 0;
    c.stop_at      = 1 + pick(seed, c.n);
    c.levels       = 1;
    if (c.kind == ONLINE) { /* sizes need a byte budget alone */
        c.plan_sizes = false;
        c.sized      = c.sized && c.budget != 0;
    }
    if (c.kind >= HREVOLVE_LEVELS)
        random_levels(seed, &c, level_count);
    return c;
}

/* The problem of a case (its levels and sizes in the arrays given). */
static void problem_of(const struct case_ *c, const struct model *m,
                       uturn_problem_t *p, uturn_level_t *lv, uint64_t *sizes)
{
    for (uint64_t i = 0; i < c->n; i++)
        sizes[i] = 8 * bc_doubles_of(&m->chain, i);
    uturn_problem_init(p);
    p->planner    = c->kind == PLAIN ? c->planner : UTURN_PLANNER_ONLINE;
    p->steps      = c->n;
    p->slot_bytes = 8 * (c->sized ? WIDTH / 2 : m->chain.width);
    if (c->kind == ONLINE || c->kind == ONLINE_LEVELS) {
        p->steps     = 0;
        p->max_steps = c->n;
        if (c->sized && c->budget != 0)
            p->slot_bytes = 0; /* a byte budget alone */
    }
    if (c->kind == HREVOLVE_LEVELS)
        p->planner = UTURN_PLANNER_HREVOLVE;
    if (c->plan_sizes)
        p->step_bytes = sizes;
    if (c->kind >= HREVOLVE_LEVELS) {
        for (uint64_t k = 0; k < c->levels; k++) {
            uturn_level_init(&lv[k]);
            if (k > 0) {
                lv[k].slots      = c->level_slots[k - 1];
                lv[k].write_cost = lv[k].read_cost = c->cost[k - 1];
            }
        }
        lv[0].bytes    = c->budget;
        lv[0].slots    = c->budget == 0 ? c->slots : 0;
        p->levels      = lv;
        p->level_count = c->levels;
        return;
    }
    const bool store_all =
        c->kind == PLAIN && c->planner == UTURN_PLANNER_STORE_ALL;
    if (c->budget != 0 && !store_all)
        p->budget_bytes = c->budget;
    else if (!store_all)
        p->slots = c->slots;
}

static uturn_model_t describe(const struct case_ *c, struct model *m)
{
    return bc_describe(&m->chain, c->contiguous, c->plan_sizes,
                       c->kind == ONLINE || c->kind == ONLINE_LEVELS);
}

/* What a run may answer: a plan made for the run's budget is never
 * refused for it; store-all (planned without the budget) may be, and an
 * online plan of states of different sizes when the budget cannot hold
 * its largest state (32 doubles). */
static bool allowed(const struct case_ *c, uturn_status_t st)
{
    if (st == UTURN_OK || st == UTURN_E_CALLBACK)
        return true;
    return st == UTURN_E_INFEASIBLE &&
           ((c->kind == PLAIN && c->planner == UTURN_PLANNER_STORE_ALL) ||
            (c->kind == ONLINE && c->sized && c->budget < 8 * 32));
}

/* What the run's levels may hold: the shelf's capacity, the file's. */
static void level_limits(struct rig *r, const uturn_plan_t *plan,
                         struct model *m, uint64_t stride)
{
    m->file_cap    = 0;
    r->shelf.cap   = 0;
    r->shelf.opens = r->shelf.closes = 0;
    uturn_stats_t s;
    uturn_stats_init(&s);
    uturn_plan_stats(plan, &s);
    for (uint64_t k = 1; k < s.levels; k++) {
        uturn_level_stats_t ls;
        uturn_level_stats_init(&ls);
        cr_assert_eq(uturn_plan_level_stats(plan, k, &ls), UTURN_OK);
        if (r->kinds[k - 1] == USER) {
            r->shelf.cap       = ls.slots;
            r->shelf.cap_bytes = ls.slots * stride;
        } else {
            m->file_cap = ls.slots * stride;
        }
    }
}

/* After a run: what the library says it holds is what is held, within
 * the run's budget (exactly the plan's peak after a run without one);
 * the levels hold nothing. */
static void expect_after(struct rig *r, const struct case_ *c,
                         const struct model *m, uturn_status_t st,
                         const uturn_report_t *rep, uint64_t k)
{
    const uint64_t now = memory_held(r);
    cr_assert_eq(now, uturn_executor_held_bytes(r->ex),
                 "run %llu: %llu bytes held, the executor says %llu", ULL(k),
                 ULL(now), ULL(uturn_executor_held_bytes(r->ex)));
    if (!r->pages)
        cr_assert_eq(held_bytes_now(), 0,
                     "run %llu: the allocator backend "
                     "mapped or malloc'd slots itself",
                     ULL(k));
    if (c->budget != 0)
        cr_assert_leq(now, c->budget,
                      "run %llu: %llu bytes kept after it, "
                      "its budget %llu",
                      ULL(k), ULL(now), ULL(c->budget));
    else if (st != UTURN_E_INFEASIBLE)
        cr_assert_eq(now, rep->planned_peak_bytes,
                     "run %llu: a run without a budget keeps its own need",
                     ULL(k));
    if (m->calls > 0)
        cr_assert_eq(rep->measured_peak_bytes, m->most,
                     "run %llu: measured_peak_bytes %llu, held %llu", ULL(k),
                     ULL(rep->measured_peak_bytes), ULL(m->most));
    cr_assert_eq(r->shelf.held, 0, "run %llu: the user level holds states",
                 ULL(k));
    cr_assert_eq(r->shelf.opens, r->shelf.closes);
    cr_assert_eq(scratch_count(r->parent), 0, "run %llu left files", ULL(k));
}

static void reset_model(struct model *m, const struct case_ *c)
{
    bc_reset(&m->chain, c->sized, c->width, c->stop_at);
    m->chain.watch = watch;
    m->calls       = 0;
    m->fail_at     = c->fail_at;
    m->most        = 0;
    m->slots[0]    = '\0';
}

/* One run of the sequence, with the invariant checked throughout. */
static void one_run(struct rig *r, const struct case_ *c, struct model *m,
                    uint64_t k)
{
    reset_model(m, c);
    uturn_problem_t p;
    uturn_level_t lv[3];
    uint64_t sizes[MAX_N];
    problem_of(c, m, &p, lv, sizes);
    /* A byte budget alone (online, sizes found as the run goes) is the
     * plan's own: uturn_executor_plan() needs a size. */
    const uturn_allocator_t books = {books_alloc, books_free, NULL};
    uturn_plan_t *plan            = NULL;
    const uturn_status_t made =
        p.slot_bytes == 0 && p.step_bytes == NULL
            ? uturn_plan_create(&p, &books, &plan, NULL)
            : uturn_executor_plan(r->ex, &p, &plan, NULL);
    if (made != UTURN_OK)
        return; /* no plan fits that budget: nothing runs */
    level_limits(r, plan, m, 16 * ((8 * m->chain.width + 15) / 16));
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.budget_bytes        = c->budget;
    m->limit              = c->budget != 0 ? c->budget : UINT64_MAX;
    held.limit            = m->limit;
    const uturn_model_t d = describe(c, m);
    uturn_report_t rep;
    uturn_report_init(&rep);
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st =
        uturn_executor_run(r->ex, plan, &d, &o, NULL, &rep, &err);
    cr_assert(allowed(c, st), "run %llu (kind %d): %s: %s", ULL(k), c->kind,
              uturn_status_name(st), err.message);
    cr_assert_eq(m->chain.wrong_sizes, 0, "run %llu: a state of the wrong size",
                 ULL(k));
    cr_assert_eq(m->violations, 0, "run %llu (kind %d, %s): %s", ULL(k),
                 c->kind, rep.storage_backend, m->what);
    cr_assert_eq(held.over + r->slots.over, 0,
                 "run %llu (%s): %llu bytes held at an allocation, budget "
                 "%llu",
                 ULL(k), rep.storage_backend, ULL(held.over_bytes),
                 ULL(c->budget));
    cr_assert_eq(r->shelf.over, 0,
                 "run %llu: the user level held more "
                 "than its slots",
                 ULL(k));
    expect_after(r, c, m, st, &rep, k);
    if (st == UTURN_OK) {
        const uint64_t n =
            c->kind == ONLINE || c->kind == ONLINE_LEVELS ? c->stop_at : c->n;
        const double want = bc_reference(n);
        cr_assert(memcmp(&m->chain.xbar, &want, sizeof want) == 0,
                  "run %llu: the gradient differs", ULL(k));
    }
    uturn_plan_free(plan);
}

static void sequence(bool pages, enum level_kind one, enum level_kind two,
                     uint64_t seed, uint64_t runs)
{
    static struct rig r;
    rig_open(&r, pages, one, two);
    static struct model m;
    memset(&m, 0, sizeof m);
    m.rig               = &r;
    const uint64_t most = one == NONE ? 0 : two == NONE ? 1 : 2;
    for (uint64_t k = 0; k < runs; k++) {
        const struct case_ c = random_case(&seed, most);
        one_run(&r, &c, &m, k);
        if (pick(&seed, 40) == 0) {
            uturn_executor_trim(r.ex);
            cr_assert_eq(memory_held(&r), 0, "trim gave everything back");
        }
    }
    held.limit      = UINT64_MAX;
    const bool file = one == FILE_OVERLAPPED || two == FILE_SYNC;
    cr_assert(!file || m.files_seen > 0, "no callback saw a slots file");
    cr_assert(one != USER && two != USER ? true : r.shelf.puts > 0,
              "the user level was never used");
    rig_close(&r);
}

Test(budget_held, the_pages_backend_keeps_to_every_budget)
{
    for (uint64_t seed = 1; seed <= 4; seed++)
        sequence(true, NONE, NONE, seed, 250);
}

Test(budget_held, the_allocator_backend_keeps_to_every_budget)
{
    for (uint64_t seed = 1; seed <= 2; seed++)
        sequence(false, NONE, NONE, seed, 250);
}

Test(budget_held, pages_with_a_file_and_a_user_level)
{
    sequence(true, FILE_OVERLAPPED, USER, 11, 250);
    sequence(true, USER, FILE_SYNC, 12, 250);
}

Test(budget_held, the_allocator_with_a_file_and_a_user_level)
{
    sequence(false, FILE_OVERLAPPED, USER, 21, 250);
    sequence(false, USER, FILE_SYNC, 22, 250);
}

/* A run refused for its model (no adjoint callback) with a budget below
 * what the executor kept: between runs it holds at most that run's
 * budget (uturn_executor_trim()), as after a run refused for its budget.
 * Returns what was held after the refused run. */
#define REFUSED_BUDGET 8192u

static uint64_t held_after_a_refused_run(bool pages)
{
    static struct rig r;
    rig_open(&r, pages, NONE, NONE);
    static struct model m;
    memset(&m, 0, sizeof m);
    m.rig                = &r;
    const struct case_ c = {.kind       = PLAIN,
                            .planner    = UTURN_PLANNER_STORE_ALL,
                            .n          = 40,
                            .width      = WIDTH,
                            .contiguous = true};
    one_run(&r, &c, &m, 0);
    cr_assert_eq(memory_held(&r), 40 * 8 * WIDTH, "store-all's region kept");
    uturn_problem_t p;
    uturn_level_t lv[3];
    uint64_t sizes[MAX_N];
    problem_of(&c, &m, &p, lv, sizes);
    uturn_plan_t *plan = NULL;
    cr_assert_eq(uturn_executor_plan(r.ex, &p, &plan, NULL), UTURN_OK);
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.budget_bytes  = REFUSED_BUDGET;
    uturn_model_t d = describe(&c, &m);
    d.adjoint       = NULL;
    const uturn_status_t st =
        uturn_executor_run(r.ex, plan, &d, &o, NULL, NULL, NULL);
    const uint64_t after = memory_held(&r);
    uturn_plan_free(plan);
    rig_close(&r);
    cr_assert_eq(st, UTURN_E_INVALID_ARG);
    return after;
}

Test(budget_held, a_run_refused_for_its_model_keeps_to_its_budget)
{
    const uint64_t pages = held_after_a_refused_run(true);
    const uint64_t alloc = held_after_a_refused_run(false);
    cr_assert(pages <= REFUSED_BUDGET && alloc <= REFUSED_BUDGET,
              "after a run refused for its model with a budget of %u bytes "
              "the executor holds %llu bytes (pages), %llu (allocator)",
              REFUSED_BUDGET, ULL(pages), ULL(alloc));
}
