#define _GNU_SOURCE /* mkdtemp, nftw */
/*
 * Durable runs against what an outside review tried: a manifest edited
 * with its checksum made right again (a slot outside the plan, a slot
 * moved, a live state or a count changed) is refused before any
 * callback, never resumed into a wrong gradient or a write out of bounds;
 * a user's files that only look like durable ones stay; a link planted
 * under a durable file's name is never followed; a FIFO never hangs a
 * call; an adjoint_bytes that cannot be had is refused before any
 * callback; inspecting a directory writes nothing in it; a removal that
 * fails names the file and can be tried again.
 */
#include "durable_sim.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#define N 120

/* The manifest's text, and its number of lines (counted here). */
static size_t manifest_text(const struct rig *r, char *text, size_t cap,
                            size_t *lines)
{
    char path[PATH_MAX];
    FILE *f = fopen(scratch_join(path, r->dir, "manifest"), "r");
    cr_assert_not_null(f);
    const size_t len = fread(text, 1, cap - 1, f);
    fclose(f);
    text[len] = '\0';
    *lines    = 0;
    for (size_t i = 0; i < len; i++)
        *lines += text[i] == '\n';
    return len;
}

static void manifest_write(const struct rig *r, const char *text, size_t len)
{
    char path[PATH_MAX];
    FILE *f = fopen(scratch_join(path, r->dir, "manifest"), "w");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(text, 1, len, f), len);
    fclose(f);
}

/* In the manifest, replace the first `from` (the start of a line) by
 * `to`, the whole line when `line`, and make its checksum line right
 * again: an edit the checksum cannot see. */
static void edit(const struct rig *r, const char *from, const char *to,
                 bool line)
{
    char text[65536], out[65536];
    size_t lines = 0;
    manifest_text(r, text, sizeof text, &lines);
    const char *at = strstr(text, from);
    cr_assert_not_null(at, "no line %s", from);
    const char *rest = line ? strchr(at, '\n') : at + strlen(from);
    const char *sum  = strstr(text, "\nsum ") + 1;
    int n = snprintf(out, sizeof out, "%.*s%s%.*s", (int)(at - text), text, to,
                     (int)(sum - rest), rest);
    n += snprintf(out + n, sizeof out - (size_t)n, "sum %016llx\n",
                  (unsigned long long)XXH3_64bits(out, (size_t)n));
    manifest_write(r, out, (size_t)n);
}

Test(durable_attacks, an_edited_manifest_with_a_right_checksum_is_refused)
{
    static const struct {
        const char *from, *to;
        bool line;
        uturn_status_t status;
        const char *why;
    } edits[] = {
        {"slot 0 0 ", "slot 999 0 ", false, UTURN_E_INVALID_ARG, "lead"},
        {"slot 1 ", "slot 0 ", false, UTURN_E_INVALID_ARG, "lead"},
        {"live ", "live none", true, UTURN_E_INVALID_ARG, "lead"},
        {"counts 50 ", "counts 10 ", false, UTURN_E_INVALID_ARG, "lead"},
        {"action ", "action 1", true, UTURN_E_INVALID_ARG, "lead"},
        {"slot 0 0 ", "slot -1 0 ", false, UTURN_E_IO, "manifest is damaged"},
    };
    for (size_t k = 0; k < sizeof edits / sizeof edits[0]; k++) {
        struct rig r;
        rig_open(&r, MEMORY, N);
        durable_stopped(&r, 50);
        edit(&r, edits[k].from, edits[k].to, edits[k].line);
        durable_refused(&r, UTURN_DURABLE_RESUME, edits[k].status,
                        edits[k].why);
        rig_close(&r);
    }
}

/* A damaged manifest is named with the line where it went wrong: the
 * lines are counted here, from the file the run wrote. */
Test(durable_attacks, a_damaged_manifest_names_its_line)
{
    char text[65536], changed[65536 + 64], want[128];
    for (int k = 0; k < 4; k++) {
        struct rig r;
        rig_open(&r, MEMORY, N);
        durable_stopped(&r, 50);
        size_t lines     = 0;
        const size_t len = manifest_text(&r, text, sizeof text, &lines);
        cr_assert_gt(lines, 6);
        if (k == 0) { /* cut after its fifth line */
            const char *cut = text;
            for (int i = 0; i < 5; i++)
                cut = strchr(cut, '\n') + 1;
            manifest_write(&r, text, (size_t)(cut - text));
            snprintf(want, sizeof want,
                     "it ends after its line 5, with no sum line");
        } else if (k == 1) { /* empty */
            manifest_write(&r, text, 0);
            snprintf(want, sizeof want, "it is empty");
        } else if (k == 2) { /* a line more after the sum */
            memcpy(changed, text, len);
            memcpy(changed + len, "slot 9 9 9 0\n", 13);
            manifest_write(&r, changed, len + 13);
            snprintf(want, sizeof want,
                     "it goes on after its sum line (line %zu)", lines);
        } else { /* a sign in the first slot line */
            const char *at = strstr(text, "\nslot 0 0 ") + 1;
            size_t line    = 1;
            for (const char *c = text; c < at; c++)
                line += *c == '\n';
            const int head = (int)(at - text);
            const int n    = snprintf(changed, sizeof changed, "%.*sslot -0%s",
                                      head, text, at + 6);
            manifest_write(&r, changed, (size_t)n);
            snprintf(want, sizeof want,
                     "its line %zu is not what a manifest holds", line);
        }
        durable_refused(&r, UTURN_DURABLE_RESUME, UTURN_E_IO, want);
        rig_close(&r);
    }
}

Test(durable_attacks, files_that_only_look_durable_stay)
{
    struct rig r;
    rig_open(&r, MEMORY, N);
    cr_assert_eq(mkdir(r.dir, 0700), 0);
    const char *mine[] = {"state-of-the-art.txt", "live-plot.py",
                          "adjoint-notes.md", "results.tmp", "manifest-draft"};
    char path[PATH_MAX];
    for (int k = 0; k < 5; k++) {
        FILE *f = fopen(scratch_join(path, r.dir, mine[k]), "w");
        cr_assert_not_null(f);
        fclose(f);
    }
    struct sim s = {0};
    struct outcome o;
    durable_run(&r, &s, UTURN_DURABLE_NEW, &o); /* complete: it cleans up */
    cr_assert_eq(o.status, UTURN_OK, "%s", o.message);
    cr_assert_gt(o.rep.durable_points, 1);
    for (int k = 0; k < 5; k++)
        cr_assert_eq(access(scratch_join(path, r.dir, mine[k]), F_OK), 0,
                     "%s was removed", mine[k]);
    cr_assert_eq(uturn_durable_remove(r.dir, NULL), UTURN_OK);
    cr_assert_eq(scratch_count(r.dir), 5, "remove took a user's file");
    rig_close(&r);
}

/* A directory no durable run made, whose files happen to bear the
 * library's names (a FIFO among them): uturn_durable_remove touches
 * nothing there and leaves no lock file (it had removed them all). */
Test(durable_attacks, remove_touches_nothing_of_no_run, .timeout = 30)
{
    struct rig r;
    rig_open(&r, MEMORY, N);
    cr_assert_eq(mkdir(r.dir, 0700), 0);
    const char *mine[] = {"records",   "shares",     "live-1",
                          "adjoint-9", "manifest-3", "manifest"};
    char path[PATH_MAX];
    for (int k = 0; k < 6; k++) {
        FILE *f = fopen(scratch_join(path, r.dir, mine[k]), "w");
        cr_assert_not_null(f);
        fputs("the user's own\n", f);
        fclose(f);
    }
    cr_assert_eq(mkfifo(scratch_join(path, r.dir, "manifest-4"), 0600), 0);
    cr_assert_eq(uturn_durable_remove(r.dir, NULL), UTURN_OK);
    cr_assert_eq(scratch_count(r.dir), 7, "remove took a user's file");
    cr_assert_neq(access(scratch_join(path, r.dir, "lock"), F_OK), 0);
    rig_close(&r);
}

Test(durable_attacks, a_link_under_a_durable_name_is_never_followed)
{
    struct rig r;
    rig_open(&r, MEMORY, N);
    durable_stopped(&r, 50);
    char victim[PATH_MAX], link[PATH_MAX];
    scratch_join(victim, r.parent, "victim");
    FILE *f = fopen(victim, "w");
    cr_assert_not_null(f);
    fputs("precious", f);
    fclose(f);
    /* the next point's adjoint and manifest go through these names */
    const char *names[] = {"adjoint-2.tmp", "manifest.tmp", "live-2.tmp"};
    for (int k = 0; k < 3; k++)
        cr_assert_eq(symlink(victim, scratch_join(link, r.dir, names[k])), 0);
    struct sim s = {.no_x0 = true};
    struct outcome o;
    durable_run(&r, &s, UTURN_DURABLE_RESUME, &o);
    cr_assert_eq(o.status, UTURN_OK, "%s", o.message);
    char buf[16] = {0};
    f            = fopen(victim, "r");
    cr_assert_not_null(f);
    cr_assert_eq(fread(buf, 1, sizeof buf - 1, f), 8);
    fclose(f);
    cr_assert_str_eq(buf, "precious", "a link was followed");
    rig_close(&r);
}

Test(durable_attacks, a_fifo_never_hangs_a_call, .timeout = 30)
{
    struct rig r;
    rig_open(&r, MEMORY, N);
    cr_assert_eq(mkdir(r.dir, 0700), 0);
    char path[PATH_MAX];
    cr_assert_eq(mkfifo(scratch_join(path, r.dir, "manifest"), 0600), 0);
    uturn_durable_info_t info;
    uturn_durable_info_init(&info);
    cr_assert_eq(uturn_durable_inspect(r.dir, &info, NULL), UTURN_E_IO);
    durable_refused(&r, UTURN_DURABLE_RESUME, UTURN_E_IO,
                    "manifest cannot be read");
    rig_close(&r);
}

/* Not in a sanitizer build: AddressSanitizer ends the process at any
 * allocation it cannot make, where the library would have failed it. */
#ifndef UTURN_TEST_SANITIZED
Test(durable_attacks, an_adjoint_too_large_to_hold_is_refused_first)
{
    struct rig r;
    rig_open(&r, MEMORY, N);
    struct sim s    = {0};
    uturn_model_t m = sim_model(&s);
    m.adjoint_bytes = UINT64_MAX / 2;
    uturn_run_options_t o;
    uturn_run_options_init(&o);
    o.durable_dir = r.dir;
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_executor_run(r.ex, r.plan, &m, &o, NULL, NULL, &err),
                 UTURN_E_NOMEM);
    cr_assert(strstr(err.message, "adjoint_bytes") != NULL, "%s", err.message);
    cr_assert_eq(s.calls + s.forward, 0);
    rig_close(&r);
}
#endif

/* Put the rig's durable directory on a path of over 400 bytes (cluster
 * scratch): two directories of 200 bytes' names, then durable. */
static void long_dir(struct rig *r)
{
    char name[201];
    memset(name, 'd', 200);
    name[200] = '\0';
    char *end = r->dir + strlen(r->parent);
    for (int k = 0; k < 2; k++) {
        end +=
            snprintf(end, (size_t)(r->dir + sizeof r->dir - end), "/%s", name);
        cr_assert_eq(mkdir(r->dir, 0700), 0);
    }
    snprintf(end, (size_t)(r->dir + sizeof r->dir - end), "/durable");
    cr_assert_gt(strlen(r->dir), 400);
}

/* A durable directory on a path of over 400 bytes (cluster scratch): a
 * refusal still says why, within a message's 256 bytes; the path is named
 * by its last bytes (it had filled the message, the reason cut off). */
Test(durable_attacks, a_long_path_leaves_room_for_the_reason)
{
    struct rig r;
    rig_open(&r, MEMORY, N);
    long_dir(&r);
    durable_stopped(&r, 50);
    uturn_plan_free(r.plan);
    r.plan = make_plan(MEMORY, N, 5); /* another plan */
    durable_refused(&r, UTURN_DURABLE_RESUME, UTURN_E_INVALID_ARG,
                    "of another plan (fingerprint)");
    durable_refused(&r, UTURN_DURABLE_RESUME, UTURN_E_INVALID_ARG,
                    "durable directory ...ddd");
    rig_close(&r);
}

/* A file of the point gone: the resume is refused naming the file and
 * why, "its file adjoint-P: No such file or directory" (the colon was
 * missing). */
Test(durable_attacks, a_missing_file_is_named_with_why)
{
    struct rig r;
    rig_open(&r, MEMORY, N);
    durable_stopped(&r, 50);
    uturn_durable_info_t info;
    uturn_durable_info_init(&info);
    cr_assert_eq(uturn_durable_inspect(r.dir, &info, NULL), UTURN_OK);
    char name[64], path[PATH_MAX], want[96];
    snprintf(name, sizeof name, "adjoint-%llu", (unsigned long long)info.point);
    cr_assert_eq(unlink(scratch_join(path, r.dir, name)), 0);
    snprintf(want, sizeof want, "its file %s: %s", name, strerror(ENOENT));
    durable_refused(&r, UTURN_DURABLE_RESUME, UTURN_E_IO, want);
    rig_close(&r);
}

/* uturn_durable_inspect of a directory no run made (empty, or the
 * user's) writes nothing there: it had made a lock file, after which
 * remove took the directory for a durable run's. */
Test(durable_attacks, inspect_writes_nothing)
{
    struct rig r;
    rig_open(&r, MEMORY, N);
    cr_assert_eq(mkdir(r.dir, 0700), 0);
    uturn_durable_info_t info;
    uturn_durable_info_init(&info);
    cr_assert_eq(uturn_durable_inspect(r.dir, &info, NULL), UTURN_OK);
    cr_assert(!info.has_point && !info.in_use);
    cr_assert_eq(scratch_count(r.dir), 0, "inspect wrote in the directory");
    char path[PATH_MAX];
    FILE *f = fopen(scratch_join(path, r.dir, "notes.txt"), "w");
    cr_assert_not_null(f);
    fclose(f);
    cr_assert_eq(uturn_durable_inspect(r.dir, &info, NULL), UTURN_OK);
    cr_assert_eq(uturn_durable_remove(r.dir, NULL), UTURN_OK);
    cr_assert_eq(scratch_count(r.dir), 1, "remove took the user's file");
    cr_assert_neq(access(scratch_join(path, r.dir, "lock"), F_OK), 0);
    /* and of a run's: its files as they were, the lock not taken */
    rig_close(&r);
    rig_open(&r, MEMORY, N);
    durable_stopped(&r, 50);
    const long files = scratch_count(r.dir);
    cr_assert_eq(uturn_durable_inspect(r.dir, &info, NULL), UTURN_OK);
    cr_assert(info.has_point && !info.in_use);
    cr_assert_eq(scratch_count(r.dir), files);
    rig_close(&r);
}

/* A damaged manifest on a path of over 400 bytes: inspect (as resume)
 * names the path by its last bytes and still says what is wrong. */
Test(durable_attacks, inspect_on_a_long_path_says_why)
{
    struct rig r;
    rig_open(&r, MEMORY, N);
    long_dir(&r);
    durable_stopped(&r, 50);
    char path[PATH_MAX];
    FILE *f = fopen(scratch_join(path, r.dir, "manifest"), "a");
    cr_assert_not_null(f);
    fputs("one line too many\n", f);
    fclose(f);
    uturn_durable_info_t info;
    uturn_durable_info_init(&info);
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_durable_inspect(r.dir, &info, &err), UTURN_E_IO);
    cr_assert(strstr(err.message, "durable directory ...ddd") != NULL, "%s",
              err.message);
    cr_assert(strstr(err.message, "goes on after its sum line") != NULL, "%s",
              err.message);
    rig_close(&r);
}

/* A file of the run that cannot be removed (a directory under a state's
 * name): remove fails naming it, and leaves the manifest and the lock, so
 * that once it is dealt with remove is tried again and takes the rest
 * (it had removed the manifest first, leaving a directory it no longer
 * knew as a run's). */
Test(durable_attacks, a_failed_remove_names_the_file_and_can_be_tried_again)
{
    struct rig r;
    rig_open(&r, MEMORY, N);
    durable_stopped(&r, 50);
    char path[PATH_MAX];
    const char *odd = "state-7-0123456789abcdef";
    cr_assert_eq(mkdir(scratch_join(path, r.dir, odd), 0700), 0);
    uturn_error_t err;
    uturn_error_init(&err);
    cr_assert_eq(uturn_durable_remove(r.dir, &err), UTURN_E_IO);
    cr_assert(strstr(err.message, "its file state-7-0123456789abcdef could "
                                  "not be removed") != NULL,
              "%s", err.message);
    cr_assert_eq(access(scratch_join(path, r.dir, "manifest"), F_OK), 0);
    cr_assert_eq(access(scratch_join(path, r.dir, "lock"), F_OK), 0);
    cr_assert_eq(rmdir(scratch_join(path, r.dir, odd)), 0);
    cr_assert_eq(uturn_durable_remove(r.dir, &err), UTURN_OK, "%s",
                 err.message);
    cr_assert_neq(access(r.dir, F_OK), 0, "the directory stayed");
    rig_close(&r);
}

/* A lock that is a link or a directory: remove names the lock, removes
 * nothing, and the link's target stays as it was. */
Test(durable_attacks, a_lock_that_is_no_file_is_named)
{
    struct rig r;
    rig_open(&r, MEMORY, N);
    durable_stopped(&r, 50);
    char path[PATH_MAX], victim[PATH_MAX];
    FILE *f = fopen(scratch_join(victim, r.parent, "victim"), "w");
    cr_assert_not_null(f);
    fclose(f);
    for (int k = 0; k < 2; k++) {
        scratch_join(path, r.dir, "lock");
        cr_assert_eq(unlink(path) == 0 || rmdir(path) == 0, true);
        cr_assert_eq(k == 0 ? symlink(victim, path) : mkdir(path, 0700), 0);
        const long files = scratch_count(r.dir);
        uturn_error_t err;
        uturn_error_init(&err);
        cr_assert_eq(uturn_durable_remove(r.dir, &err), UTURN_E_IO);
        cr_assert(strstr(err.message, "its file lock is not a regular file") !=
                      NULL,
                  "%s", err.message);
        cr_assert_eq(scratch_count(r.dir), files, "something was removed");
        cr_assert_eq(access(victim, F_OK), 0);
    }
    rig_close(&r);
}

/* A file of the user's named manifest (empty): a new run names it as a
 * file that is no durable run's, not as a point it "cannot resume",
 * and remove leaves it (both say it is no run's). A run's own manifest,
 * damaged: a new run says to remove it, and once removed starts. */
Test(durable_attacks, a_stray_manifest_is_not_called_a_damaged_point)
{
    struct rig r;
    rig_open(&r, MEMORY, N);
    cr_assert_eq(mkdir(r.dir, 0700), 0);
    char path[PATH_MAX];
    FILE *f = fopen(scratch_join(path, r.dir, "manifest"), "w");
    cr_assert_not_null(f);
    fclose(f);
    durable_refused(&r, UTURN_DURABLE_NEW, UTURN_E_IO,
                    "its file manifest is no durable run's");
    durable_refused(&r, UTURN_DURABLE_AUTO, UTURN_E_IO,
                    "move it, or use another directory");
    cr_assert_eq(uturn_durable_remove(r.dir, NULL), UTURN_OK);
    cr_assert_eq(scratch_count(r.dir), 1, "the user's file was removed");
    rig_close(&r);
    rig_open(&r, MEMORY, N);
    durable_stopped(&r, 50);
    f = fopen(scratch_join(path, r.dir, "manifest"), "a");
    cr_assert_not_null(f);
    fputs("one line too many\n", f);
    fclose(f);
    durable_refused(&r, UTURN_DURABLE_NEW, UTURN_E_IO,
                    "holds a damaged point (its manifest is damaged");
    durable_refused(&r, UTURN_DURABLE_RESUME, UTURN_E_IO,
                    "cannot be resumed: its manifest is damaged");
    cr_assert_eq(uturn_durable_remove(r.dir, NULL), UTURN_OK);
    struct sim s = {0};
    struct outcome o;
    durable_run(&r, &s, UTURN_DURABLE_NEW, &o);
    cr_assert_eq(o.status, UTURN_OK, "%s", o.message);
    rig_close(&r);
}
