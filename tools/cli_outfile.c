/*
 * Files the tool writes (--plot): created as a temporary file beside the
 * target before any work is done, so that a bad path fails at once, and
 * renamed over the target only once complete. An existing file is never
 * truncated, a symbolic link at the target is replaced rather than
 * followed, and a failed write leaves the old file as it was.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_outfile_open(const char *path, struct cli_outfile *f)
{
    memset(f, 0, sizeof *f);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return cli_fail("cannot write '%s': Is a directory", path);
    const size_t len = strlen(path);
    if (len == 0 || len > sizeof f->temp - 16)
        return cli_fail("cannot write '%s': %s", path,
                        len == 0 ? "empty path" : "path too long");
    snprintf(f->temp, sizeof f->temp, "%s.tmp-XXXXXX", path);
    const int fd = mkstemp(f->temp);
    if (fd < 0)
        return cli_fail("cannot write '%s': %s", path, strerror(errno));
    f->stream = fdopen(fd, "w");
    if (f->stream == NULL) {
        const int err = errno;
        close(fd);
        unlink(f->temp);
        return cli_fail("cannot write '%s': %s", path, strerror(err));
    }
    f->path = path;
    return CLI_OK;
}

int cli_outfile_commit(struct cli_outfile *f)
{
    errno        = 0;
    const bool ok = fflush(f->stream) == 0 && !ferror(f->stream);
    int err       = errno;
    if (fclose(f->stream) != 0 && ok)
        err = errno;
    f->stream = NULL;
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
    unlink(f->temp);
}
