/*
 * Slot storage: the backends behind one interface. A backend holds one
 * region (the executor's slab) and says what a number of bytes of it
 * costs; where each slot lives inside the region is the slot space's job
 * (slot_space.c), the same for every backend. One backend per file
 * (storage_pages.c, storage_alloc.c), one table (storage.c).
 *
 * Costs are computed, never probed: a region holding x bytes (k uniform
 * slots of b bytes: x = k * stride(b), stride(b) = round_up(b, 16)) costs
 * a pure function of x, the backend and the page size. So the same
 * request gives the same capacity in every process, whatever it allocated
 * before, which is what lets MPI ranks agree on a plan.
 */
#ifndef UTURN_STORAGE_H_INCLUDED
#define UTURN_STORAGE_H_INCLUDED

#include "internal.h"

/* Every slot starts at a multiple of this: what malloc guarantees, so a
 * save callback may write any C type into its buffer. */
#define UTURN__SLOT_ALIGNMENT 16

enum uturn__backend {
    UTURN__BACKEND_PAGES,
    UTURN__BACKEND_ALLOCATOR,
    UTURN__BACKEND_FILE,
    UTURN__BACKEND_USER
};

struct uturn__storage;

struct uturn__storage_ops {
    const char *name;
    /* The unit the region's cost is rounded to (report and messages):
     * see cost(). */
    uint64_t (*granule)(const struct uturn__storage *st);
    /* What a region holding `bytes` costs (>= bytes); false on overflow.
     * Monotone in bytes. */
    bool (*cost)(const struct uturn__storage *st, uint64_t bytes,
                 uint64_t *out);
    /* The most bytes a region may hold within a budget: the largest x
     * with cost(x) <= budget. */
    uint64_t (*usable)(const struct uturn__storage *st, uint64_t budget);
    /* Make the region exactly `bytes` long (a multiple of the granule; 0
     * gives it back). Contents are not kept: every slot is empty between
     * runs. Pages already touched are kept where the backend can. */
    uturn_status_t (*resize)(struct uturn__storage *st, uint64_t bytes);
    void (*close)(struct uturn__storage *st);
    /* The rest is for backends whose region has no address (base stays
     * NULL: files, the user's); NULL for memory.
     *
     * Around each run, on every exit path: begin_run prepares for a region
     * of `bytes` holding at most `ids` slots (a file backend makes the
     * run's directory, lock file and file, and checks the free space);
     * end_run removes everything begin_run made. */
    uturn_status_t (*begin_run)(struct uturn__storage *st, uint64_t bytes,
                                uint64_t ids);
    void (*end_run)(struct uturn__storage *st);
    /* Copy a state in or out of the region: id is the slot's id (a user
     * backend keys on it), offset where the slot space placed it (a file
     * backend writes there), step the state's index (checksums, messages).
     * A read checks what it reads (a file backend: the checksum written
     * with it) and fails with UTURN_E_IO, st->message naming the step and
     * the file, rather than return wrong bytes. */
    uturn_status_t (*write)(struct uturn__storage *st, uint64_t id,
                            uint64_t offset, const void *src, uint64_t bytes,
                            uint64_t step);
    uturn_status_t (*read)(struct uturn__storage *st, uint64_t id,
                           uint64_t offset, void *dst, uint64_t bytes,
                           uint64_t step);
    /* id's state is no longer needed. */
    void (*drop)(struct uturn__storage *st, uint64_t id);
};

struct uturn__storage {
    const struct uturn__storage_ops *ops;
    enum uturn__backend kind;
    uturn_allocator_t alloc; /* ALLOCATOR: where the region comes from;
                                others: their bookkeeping */
    uint64_t page;           /* the system's page size */
    unsigned char *base;     /* the region, or NULL */
    uint64_t bytes;          /* its length (what it costs) */
    bool mapped;             /* PAGES: base is a mapping, else a block */
    void *impl;              /* FILE, USER: the backend's own state */
    char message[256];       /* why the last call failed */
    /* What the last run moved, for the report. */
    uint64_t bytes_written, bytes_read;
    double write_seconds, read_seconds;
    bool on_tmpfs; /* FILE: the directory is memory (tmpfs) */
    bool lossy;    /* USER: states may come back changed (not checked) */
};

/* The backend for a slot allocator (NULL or malloc/free: mapped pages). */
void uturn__storage_open(struct uturn__storage *st,
                         const uturn_allocator_t *slot_alloc);
void uturn__storage_close(struct uturn__storage *st);

/* state_bytes rounded up to the slot alignment; false on overflow. */
bool uturn__stride(uint64_t state_bytes, uint64_t *stride);
/* What a region holding bytes costs; false on overflow. */
bool uturn__storage_round(const struct uturn__storage *st, uint64_t bytes,
                          uint64_t *out);
/* The cost of everything held at once, for the report and the budget. */
void uturn__storage_cost(const struct uturn__storage *st, uint64_t state_bytes,
                         uturn_slot_cost_t *out);

/* A level beyond memory: a FILE or USER backend as the caller describes
 * it (the description is copied; its directory string too). */
uturn_status_t uturn__storage_open_level(struct uturn__storage *st,
                                         const uturn_storage_t *desc,
                                         const uturn_allocator_t *alloc);

/* storage_pages.c, storage_alloc.c, storage_file.c, storage_user.c */
extern const struct uturn__storage_ops uturn__storage_pages;
extern const struct uturn__storage_ops uturn__storage_alloc;
extern const struct uturn__storage_ops uturn__storage_file;
extern const struct uturn__storage_ops uturn__storage_user;
/* The backends' constructors (their descriptions checked and copied). */
uturn_status_t uturn__storage_file_open(struct uturn__storage *st,
                                        const char *directory,
                                        bool synchronous);
uturn_status_t uturn__storage_user_open(struct uturn__storage *st,
                                        const uturn_storage_callbacks_t *cb);

#endif
