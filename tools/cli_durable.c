/*
 * uturn durable: what a durable run's directory holds (show), and its
 * removal (remove). Both go through the library (uturn_durable_inspect,
 * uturn_durable_remove): show checks every checksum and takes no lock.
 * The directory of a run across MPI ranks: cli_durable_ranks.c.
 */
#define _DEFAULT_SOURCE /* lstat */
#include "cli_durable.h"

#include "cli.h"

#include <dirent.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>

static const char durable_help[] =
    "usage: uturn durable show DIR\n"
    "       uturn durable remove DIR\n"
    "A durable run (uturn_run_options_t.durable_dir) keeps in DIR its last\n"
    "durable point: the checkpoints it held, its live state, the model's\n"
    "adjoint and a manifest, from which a new process resumes it.\n"
    "  show    the point: where the run stands, what it holds, whether a\n"
    "          run holds the directory now; every file is checked against\n"
    "          its checksum (a damaged one fails, named); the tag is shown\n"
    "          on one line, a byte that does not print as \\xHH and a\n"
    "          backslash as \\\\ (so is the directory's name)\n"
    "  remove  the durable files and DIR when it is then empty; a\n"
    "          directory a running run holds is refused\n"
    "A durable run across MPI ranks (DIR/commit and DIR/rank-R): show\n"
    "gives the committed point and each rank's part; remove takes the\n"
    "record, then every part.\n"
    "Exit 0, or 1 with a message (no such directory, damaged, in use).\n";

void cli_durable_line(const char *label, const char *text)
{
    printf("%-15s", label);
    for (const unsigned char *c = (const unsigned char *)text; *c != 0; c++) {
        if (*c == '\\')
            fputs("\\\\", stdout);
        else if (*c >= 0x20 && *c < 0x7f)
            putchar(*c);
        else
            printf("\\x%02x", (unsigned)*c);
    }
    putchar('\n');
}

static int show(const char *dir)
{
    uturn_durable_info_t info;
    uturn_durable_info_init(&info);
    uturn_error_t err;
    uturn_error_init(&err);
    const uturn_status_t st = uturn_durable_inspect(dir, &info, &err);
    if (st != UTURN_OK)
        return cli_fail("%s", err.message);
    cli_durable_line("directory", dir);
    printf("in_use         %s\n", info.in_use ? "yes" : "no");
    if (!info.has_point) {
        printf("point          none\n");
        return CLI_OK;
    }
    printf("point          %" PRIu64 "\n", info.point);
    printf("fingerprint    %016" PRIx64 "\n", info.fingerprint);
    cli_durable_line("tag", info.tag);
    printf("steps          %" PRIu64 "\n", info.steps);
    printf("action         %" PRIu64 "\n", info.action);
    printf("into           %" PRIu64 "\n", info.into);
    printf("forward_steps  %" PRIu64 "\n", info.forward_steps);
    printf("reverse_steps  %" PRIu64 "\n", info.reverse_steps);
    printf("checkpoints    %" PRIu64 "\n", info.checkpoints);
    printf("state_bytes    %" PRIu64 "\n", info.state_bytes);
    printf("adjoint_bytes  %" PRIu64 "\n", info.adjoint_bytes);
    printf("bytes          %" PRIu64 "\n", info.bytes);
    return CLI_OK;
}

/* The entries of directory @p path (. and .. aside), or -1 when it
 * cannot be read (gone). */
static long entries(const char *path)
{
    DIR *d = opendir(path);
    if (d == NULL)
        return -1;
    long n = 0;
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static bool is_link(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

static bool is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

int cli_cmd_durable(int argc, char **argv)
{
    if ((argc == 3 && is_help(argv[2])) || (argc == 4 && is_help(argv[3])))
        return fputs(durable_help, stdout), CLI_OK;
    /* DIR never starts with '-' here: an option; ./-d names such a one */
    if (argc != 4 ||
        (strcmp(argv[2], "show") != 0 && strcmp(argv[2], "remove") != 0) ||
        argv[3][0] == '-')
        return fputs(durable_help, stderr), CLI_BAD_INPUT;
    const bool ranks = cli_durable_is_ranks(argv[3]);
    if (strcmp(argv[2], "show") == 0)
        return ranks ? cli_durable_ranks_show(argv[3]) : show(argv[3]);
    if (ranks)
        return cli_durable_ranks_remove(argv[3]);
    uturn_error_t err;
    uturn_error_init(&err);
    const long before = entries(argv[3]);
    if (uturn_durable_remove(argv[3], &err) != UTURN_OK)
        return cli_fail("%s", err.message);
    const long after = entries(argv[3]);
    if (after < 0)
        printf("removed %s\n", argv[3]);
    else if (after == before)
        printf("%s holds no durable run (no lock or manifest of one): "
               "nothing removed\n",
               argv[3]);
    else if (after == 0) /* reached through a link: the link stays */
        printf("removed the durable files of %s; the directory, now empty, "
               "stays (%s)\n",
               argv[3],
               is_link(argv[3]) ? "the name is a symbolic link to it"
                                : "it could not be removed");
    else
        printf("removed the durable files of %s; %ld other file%s stay%s\n",
               argv[3], after, after == 1 ? "" : "s", after == 1 ? "s" : "");
    return CLI_OK;
}
