#define _GNU_SOURCE /* nftw, flock */
/* The file backend's run directory (white-box, src/storage_file.h): where
 * it goes, that it and its lock exist during a run (and the lock is held)
 * and nothing is left after, on every path, a begin_run failing midway
 * included; that directories of crashed runs are cleaned only when their
 * lock is free, and nothing else is ever touched; and the tmpfs flag. */
#include "file_rig.h"

#include <sys/file.h>
#include <sys/vfs.h>
#include <sys/wait.h>

#define STALE "uturn-999999-0123456789abcdef"

static void assert_exists(const char *path, bool want)
{
    struct stat s;
    cr_assert_eq(lstat(path, &s) == 0, want, "%s %s", path,
                 want ? "is missing" : "should be gone");
}

Test(storage_file_dir, run_directory_and_held_lock_exist_during_the_run)
{
    struct rig r;
    char run[PATH_MAX], slots[PATH_MAX], lock[PATH_MAX], want[64];
    struct stat s;
    rig_open(&r, "/tmp");
    cr_assert_eq(rig_begin(&r, 4096, 8), UTURN_OK, "%s", r.st.message);
    rig_paths(&r, run, slots);
    snprintf(want, sizeof want, "/uturn-%ld-", (long)getpid());
    cr_assert(strstr(run, want) != NULL, "%s is named for this process", run);
    cr_assert_eq(strlen(strstr(run, want)) - strlen(want), 16, "%s", run);
    cr_assert_eq(stat(run, &s), 0);
    cr_assert_eq(s.st_mode & 0777, 0700, "the run's directory is private");
    cr_assert_eq(scratch_count(run), 2, "a lock and one file for all slots");
    scratch_join(lock, run, UTURN__FILE_LOCK);
    assert_exists(slots, true);
    const int fd = open(lock, O_RDWR);
    cr_assert(fd >= 0);
    cr_assert_neq(flock(fd, LOCK_EX | LOCK_NB), 0, "the run holds its lock");
    cr_assert_eq(errno, EWOULDBLOCK);
    close(fd);
    r.st.ops->end_run(&r.st);
    cr_assert_eq(scratch_count(r.parent), 0, "end_run removes it all");
    rig_close(&r);
}

Test(storage_file_dir, directory_is_copied_and_defaults_to_tmpdir)
{
    counting_alloc_t counts   = {0};
    const uturn_allocator_t a = counting_allocator(&counts);
    struct uturn__storage st;
    uturn_storage_t desc;
    char parent[PATH_MAX], given[PATH_MAX + 2];
    cr_assert(scratch_make("/tmp", parent));
    uturn_storage_init(&desc);
    cr_assert_eq(desc.kind, UTURN_STORAGE_FILE);
    cr_assert_null(desc.directory);
    cr_assert_lt(snprintf(given, sizeof given, "%s//", parent),
                 (int)sizeof given);
    desc.directory = given;
    cr_assert_eq(uturn__storage_open_level(&st, &desc, &a), UTURN_OK);
    memset(given, 'x', 8); /* the level keeps its own copy */
    cr_assert_str_eq(uturn__file_of(&st)->parent, parent, "no trailing /");
    uturn__storage_close(&st);
    setenv("TMPDIR", parent, 1);
    desc.directory = NULL;
    cr_assert_eq(uturn__storage_open_level(&st, &desc, &a), UTURN_OK);
    cr_assert_str_eq(uturn__file_of(&st)->parent, parent);
    cr_assert_eq(st.ops->begin_run(&st, 64, 1), UTURN_OK, "%s", st.message);
    cr_assert_eq(scratch_count(parent), 1, "the run went into $TMPDIR");
    uturn__storage_close(&st);
    cr_assert_eq(scratch_count(parent), 0, "close ends the run");
    setenv("TMPDIR", "", 1);
    cr_assert_eq(uturn__storage_open_level(&st, &desc, &a), UTURN_OK);
    cr_assert_str_eq(uturn__file_of(&st)->parent, "/tmp");
    uturn__storage_close(&st);
    desc.directory = "";
    cr_assert_eq(uturn__storage_open_level(&st, &desc, &a),
                 UTURN_E_INVALID_ARG);
    cr_assert_eq(counts.live_blocks, 0);
    rmdir(parent);
}

Test(storage_file_dir, missing_directory_is_an_error_naming_it)
{
    struct rig r;
    char missing[PATH_MAX];
    rig_open(&r, "/tmp");
    scratch_join(missing, r.parent, "absent");
    uturn__storage_close(&r.st);
    uturn_storage_t desc;
    uturn_storage_init(&desc);
    desc.directory = missing;
    cr_assert_eq(uturn__storage_open_level(&r.st, &desc, &r.alloc), UTURN_OK);
    cr_assert_eq(rig_begin(&r, 64, 1), UTURN_E_IO);
    cr_assert(strstr(r.st.message, missing) != NULL, "%s", r.st.message);
    cr_assert(strstr(r.st.message, strerror(ENOENT)) != NULL, "%s",
              r.st.message);
    r.st.ops->end_run(&r.st);
    rig_close(&r);
}

/* begin_run with the given openat or fallocate failing: nothing left. */
static void begin_fails(const char *name, int err, int fallocate_err)
{
    struct rig r;
    struct faults x = {
        .fail_open = name, .err = err, .fallocate_err = fallocate_err};
    rig_open(&r, "/tmp");
    rig_faults(&r, &x);
    cr_assert_eq(rig_begin(&r, 1 << 16, 8), UTURN_E_IO);
    cr_assert(strstr(r.st.message, r.parent) != NULL, "%s", r.st.message);
    cr_assert(strstr(r.st.message, strerror(err != 0 ? err : fallocate_err)),
              "%s", r.st.message);
    cr_assert_eq(scratch_count(r.parent), 0, "begin_run undid itself (%s)",
                 r.st.message);
    r.st.ops->end_run(&r.st); /* harmless after a failed begin_run */
    uturn__storage_file_set_io(&r.st, NULL);
    cr_assert_eq(rig_begin(&r, 1 << 16, 8), UTURN_OK, "then it works");
    rig_close(&r); /* close ends the run */
}

Test(storage_file_dir, begin_run_failing_midway_leaves_nothing)
{
    begin_fails(UTURN__FILE_LOCK, EACCES, 0);
    begin_fails(UTURN__FILE_SLOTS, EMFILE, 0);
    begin_fails(NULL, 0, EIO);
}

/* A directory as a crashed run leaves it: a lock file and a slots file. */
static void make_stale(const char *parent, const char *name, char *dir)
{
    char path[PATH_MAX];
    scratch_join(dir, parent, name);
    cr_assert_eq(mkdir(dir, 0700), 0, "%s: %s", dir, strerror(errno));
    scratch_join(path, dir, UTURN__FILE_LOCK);
    int fd = open(path, O_RDWR | O_CREAT, 0600);
    cr_assert(fd >= 0);
    close(fd);
    scratch_join(path, dir, UTURN__FILE_SLOTS);
    fd = open(path, O_RDWR | O_CREAT, 0600);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, "state", 5), 5);
    close(fd);
}

/* A lock of our own on dir's lock file (another open file description). */
static int hold_lock(const char *dir)
{
    char path[PATH_MAX];
    scratch_join(path, dir, UTURN__FILE_LOCK);
    const int fd = open(path, O_RDWR);
    cr_assert(fd >= 0);
    cr_assert_eq(flock(fd, LOCK_EX | LOCK_NB), 0);
    return fd;
}

static void run_once(struct rig *r)
{
    cr_assert_eq(rig_begin(r, 4096, 4), UTURN_OK, "%s", r->st.message);
    r->st.ops->end_run(&r->st);
}

/* A new level on the same parent, as a new executor makes: crashed runs
 * are looked for at its first run only. */
static void reopen(struct rig *r)
{
    uturn__storage_close(&r->st);
    uturn_storage_t desc;
    uturn_storage_init(&desc);
    desc.directory = r->parent;
    cr_assert_eq(uturn__storage_open_level(&r->st, &desc, &r->alloc),
                 UTURN_OK, "%s", r->st.message);
}

Test(storage_file_dir, crashed_runs_are_looked_for_once_per_level)
{
    struct rig r;
    char stale[PATH_MAX];
    rig_open(&r, "/tmp");
    run_once(&r);
    make_stale(r.parent, STALE, stale);
    run_once(&r); /* a later run of the same level does not list again */
    assert_exists(stale, true);
    reopen(&r);
    run_once(&r);
    assert_exists(stale, false);
    rig_close(&r);
}

Test(storage_file_dir, stale_directory_with_a_free_lock_is_cleaned)
{
    struct rig r;
    char stale[PATH_MAX], empty[PATH_MAX];
    rig_open(&r, "/tmp");
    make_stale(r.parent, STALE, stale);
    scratch_join(empty, r.parent, "uturn-1-00000000000000ff");
    cr_assert_eq(mkdir(empty, 0700), 0); /* crashed before its lock */
    const int held = hold_lock(stale);
    close(held); /* a lock let go, as a crash lets it go */
    run_once(&r);
    assert_exists(stale, false);
    assert_exists(empty, false);
    rig_close(&r);
}

Test(storage_file_dir, stale_directory_with_a_held_lock_is_left_alone)
{
    struct rig r;
    char stale[PATH_MAX], slots[PATH_MAX];
    rig_open(&r, "/tmp");
    make_stale(r.parent, STALE, stale);
    const int held = hold_lock(stale);
    run_once(&r);
    scratch_join(slots, stale, UTURN__FILE_SLOTS);
    assert_exists(slots, true);
    cr_assert_eq(scratch_count(stale), 2, "its files are untouched");
    close(held);
    reopen(&r);
    run_once(&r);
    assert_exists(stale, false);
    rig_close(&r);
}

/* A child that locks dir's lock and holds it until its pipe closes. */
static pid_t child_holding(const char *dir, int *release)
{
    int ready[2], go[2];
    cr_assert_eq(pipe(ready), 0);
    cr_assert_eq(pipe(go), 0);
    const pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        close(ready[0]);
        close(go[1]);
        char path[PATH_MAX];
        scratch_join(path, dir, UTURN__FILE_LOCK);
        const int fd  = open(path, O_RDWR);
        const char ok = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0;
        (void)!write(ready[1], &ok, 1);
        char byte;
        (void)!read(go[0], &byte, 1);
        _exit(0);
    }
    close(ready[1]);
    close(go[0]);
    char ok = 0;
    cr_assert_eq(read(ready[0], &ok, 1), 1);
    cr_assert(ok, "the child holds the lock");
    close(ready[0]);
    *release = go[1];
    return pid;
}

Test(storage_file_dir, stale_directory_locked_by_another_process_is_left)
{
    struct rig r;
    char stale[PATH_MAX];
    int release = -1, status = 0;
    rig_open(&r, "/tmp");
    make_stale(r.parent, STALE, stale);
    const pid_t pid = child_holding(stale, &release);
    run_once(&r);
    cr_assert_eq(scratch_count(stale), 2, "a live run's files are untouched");
    close(release);
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    reopen(&r);
    run_once(&r);
    assert_exists(stale, false);
    rig_close(&r);
}

Test(storage_file_dir, nothing_but_our_own_directories_is_touched)
{
    struct rig r;
    char odd[PATH_MAX], extra[PATH_MAX], notes[PATH_MAX];
    char other[PATH_MAX];
    const char *names[] = {"uturn-build", "uturn-1-xyz", "uturn-",
                           "uturn-12-0123456789abcdef0",
                           "uturn-12-ABCDEF0123456789"};
    rig_open(&r, "/tmp");
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        scratch_join(odd, r.parent, names[i]);
        cr_assert_eq(mkdir(odd, 0700), 0, "%s", odd);
    }
    make_stale(r.parent, "uturn-2-00000000000000aa", extra);
    scratch_join(notes, extra, "notes");
    cr_assert_eq(close(open(notes, O_WRONLY | O_CREAT, 0600)), 0);
    make_stale(r.parent, "uturn-3-00000000000000bb", other);
    const bool root = geteuid() == 0;
    if (root)
        cr_assert_eq(chown(other, 65534, 65534), 0, "another user's");
    run_once(&r);
    cr_assert_eq(scratch_count(r.parent), 7 - (root ? 0 : 1));
    cr_assert_eq(scratch_count(extra), 3, "a directory with more is kept");
    scratch_remove(r.parent);
    cr_assert(scratch_make("/tmp", r.parent)); /* rig_close wants one */
    rig_close(&r);
}

Test(storage_file_dir, two_live_runs_share_a_parent)
{
    struct rig r;
    struct uturn__storage other;
    unsigned char in[16] = {1}, out[16];
    rig_open(&r, "/tmp");
    uturn_storage_t desc;
    uturn_storage_init(&desc);
    desc.directory = r.parent;
    cr_assert_eq(uturn__storage_open_level(&other, &desc, &r.alloc), UTURN_OK);
    cr_assert_eq(rig_begin(&r, 4096, 4), UTURN_OK);
    cr_assert_eq(r.st.ops->write(&r.st, 1, 16, in, 16, 8), UTURN_OK);
    cr_assert_eq(other.ops->begin_run(&other, 4096, 4), UTURN_OK, "%s",
                 other.message);
    cr_assert_eq(scratch_count(r.parent), 2, "neither cleans the other");
    cr_assert_eq(r.st.ops->read(&r.st, 1, 16, out, 16, 8), UTURN_OK, "%s",
                 r.st.message);
    uturn__storage_close(&other);
    cr_assert_eq(scratch_count(r.parent), 1);
    r.st.ops->end_run(&r.st);
    rig_close(&r);
}

static bool is_tmpfs(const char *dir)
{
    struct statfs s;
    return statfs(dir, &s) == 0 && (unsigned long)s.f_type == 0x01021994ul;
}

Test(storage_file_dir, tmpfs_is_flagged_and_a_disk_is_not)
{
    if (is_tmpfs("/dev/shm")) {
        struct rig r;
        rig_open(&r, "/dev/shm");
        cr_assert(r.st.on_tmpfs, "known at open");
        run_once(&r);
        cr_assert(r.st.on_tmpfs);
        rig_close(&r);
    }
    const char *disks[] = {"/var/tmp", "/tmp", "."};
    for (size_t i = 0; i < sizeof disks / sizeof *disks; i++) {
        if (is_tmpfs(disks[i]) || access(disks[i], W_OK) != 0)
            continue;
        struct rig r;
        rig_open(&r, disks[i]);
        cr_assert_not(r.st.on_tmpfs, "%s is not tmpfs", disks[i]);
        run_once(&r);
        cr_assert_not(r.st.on_tmpfs);
        rig_close(&r);
        return;
    }
    if (!is_tmpfs("/dev/shm"))
        cr_skip_test("neither a tmpfs nor a disk directory to try");
}

/* In a child: `runs` runs in parent, each writing and reading back a
 * state; 0 if every one worked. */
static int churn(const char *parent, int runs)
{
    uturn_allocator_t a;
    uturn__alloc_resolve(NULL, &a);
    struct uturn__storage st;
    uturn_storage_t desc;
    uturn_storage_init(&desc);
    desc.directory = parent;
    if (uturn__storage_open_level(&st, &desc, &a) != UTURN_OK)
        return 1;
    int bad = 0;
    for (int i = 0; i < runs && bad == 0; i++) {
        unsigned char in[64], out[64];
        fill_state(in, sizeof in, (uint64_t)i);
        bad = st.ops->begin_run(&st, 4096, 4) != UTURN_OK ||
              st.ops->write(&st, 2, 128, in, 64, (uint64_t)i) != UTURN_OK ||
              st.ops->read(&st, 2, 128, out, 64, (uint64_t)i) != UTURN_OK ||
              memcmp(in, out, 64) != 0;
        st.ops->end_run(&st);
    }
    uturn__storage_close(&st);
    return bad;
}

Test(storage_file_dir, runs_in_many_processes_never_clean_each_other)
{
    struct rig r;
    pid_t pids[4];
    rig_open(&r, "/tmp");
    for (int i = 0; i < 4; i++) {
        pids[i] = fork();
        cr_assert(pids[i] >= 0);
        if (pids[i] == 0)
            _exit(churn(r.parent, 100));
    }
    for (int i = 0; i < 4; i++) {
        int status = 0;
        cr_assert_eq(waitpid(pids[i], &status, 0), pids[i]);
        cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "child %d: a run failed", i);
    }
    rig_close(&r);
}
