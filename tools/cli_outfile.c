/*
 * Files the tool writes (--plot). A regular file or a missing path is
 * written as a temporary file beside the target, made before any work is
 * done (so a bad path fails at once) and renamed over the target only
 * once complete: an existing file is never truncated, a failed write
 * leaves it as it was, and the new file keeps the old one's mode (a new
 * one gets 0666 less the umask, as any created file does). A symbolic
 * link to a regular file (or to nothing) is replaced rather than
 * followed. Anything else, a device, a FIFO or a socket (/dev/stdout, a
 * pipe), is never replaced: it is opened and written in place, as a
 * shell redirection would. Every failure says why.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen, fchmod */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A device, FIFO or socket: opened for writing as it is. */
static int open_in_place(const char *path, struct cli_outfile *f)
{
    const int fd = open(path, O_WRONLY | O_NOCTTY);
    f->stream    = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f->stream != NULL)
        return CLI_OK;
    const int err = errno;
    if (fd >= 0)
        close(fd);
    return cli_fail("cannot write '%s': %s", path, strerror(err));
}

/* The mode (and owner, where allowed) the new file takes: the old
 * file's, or what creating it would give. */
static int give_mode(int fd, const struct stat *old)
{
    if (old == NULL) {
        const mode_t mask = umask(0);
        umask(mask);
        return fchmod(fd, 0666 & ~mask);
    }
    if (fchown(fd, old->st_uid, old->st_gid) != 0 && errno != EPERM)
        return -1; /* only a privileged process may give a file away */
    return fchmod(fd, old->st_mode & 07777);
}

/* A temporary file beside the target, renamed over it at commit. */
static int open_temp(const char *path, struct cli_outfile *f,
                     const struct stat *old)
{
    const size_t len = strlen(path);
    if (len > sizeof f->temp - 16)
        return cli_fail("cannot write '%s': path too long", path);
    snprintf(f->temp, sizeof f->temp, "%s.tmp-XXXXXX", path);
    const int fd = mkstemp(f->temp);
    if (fd < 0)
        return cli_fail("cannot write '%s': %s", path, strerror(errno));
    f->stream = give_mode(fd, old) == 0 ? fdopen(fd, "w") : NULL;
    if (f->stream != NULL)
        return CLI_OK;
    const int err = errno;
    close(fd);
    unlink(f->temp);
    f->temp[0] = '\0';
    return cli_fail("cannot write '%s': %s", path, strerror(err));
}

int cli_outfile_open(const char *path, struct cli_outfile *f)
{
    memset(f, 0, sizeof *f);
    f->path = path;
    if (path[0] == '\0')
        return cli_fail("cannot write '': empty path");
    struct stat target, link;
    const bool exists = stat(path, &target) == 0;
    if (exists && S_ISDIR(target.st_mode))
        return cli_fail("cannot write '%s': Is a directory", path);
    if (exists && !S_ISREG(target.st_mode))
        return open_in_place(path, f);
    const bool is_link = lstat(path, &link) == 0 && S_ISLNK(link.st_mode);
    return open_temp(path, f, exists && !is_link ? &target : NULL);
}

int cli_outfile_commit(struct cli_outfile *f)
{
    errno         = 0;
    const bool ok = fflush(f->stream) == 0 && !ferror(f->stream);
    int err       = errno;
    if (fclose(f->stream) != 0 && ok)
        err = errno;
    f->stream = NULL;
    if (f->temp[0] == '\0') { /* written in place */
        if (ok && err == 0)
            return CLI_OK;
        return cli_fail("cannot write '%s': %s", f->path,
                        err != 0 ? strerror(err) : "write error");
    }
    if (ok && err == 0 && rename(f->temp, f->path) == 0)
        return CLI_OK;
    if (ok && err == 0)
        err = errno;
    unlink(f->temp);
    return cli_fail("cannot write '%s': %s", f->path,
                    err != 0 ? strerror(err) : "write error");
}

void cli_outfile_abort(struct cli_outfile *f)
{
    if (f->stream == NULL)
        return;
    fclose(f->stream);
    f->stream = NULL;
    if (f->temp[0] != '\0')
        unlink(f->temp);
}
