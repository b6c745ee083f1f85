/*
 * The disk level: one file per rank, preallocated for the plan's disk
 * slots (slot i at offset i * state bytes), made with mkstemp() in the
 * chosen directory and unlinked at once, so that it disappears with the
 * process whatever happens. Every state written is checksummed (XXH3-64,
 * kept in memory) and checked when read back: a damaged checkpoint is an
 * error naming the step, never a wrong gradient.
 */
#define _POSIX_C_SOURCE 200809L
#include "petsc_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

/* $TMPDIR, else /tmp, when @p dir is empty. */
static const char *directory(const char *dir)
{
    if (dir != NULL && dir[0] != '\0')
        return dir;
    const char *tmp = getenv("TMPDIR");
    return tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp";
}

PetscErrorCode uturn__petsc_disk_open(struct uturn__petsc_disk *d,
                                      uint64_t slots, uint64_t state_bytes,
                                      const char *dir, MPI_Comm comm)
{
    PetscFunctionBegin;
    char path[PETSC_MAX_PATH_LEN];
    PetscMPIInt rank = 0;
    PetscCallMPI(MPI_Comm_rank(comm, &rank));
    PetscCall(PetscSNPrintf(path, sizeof path, "%s/uturn-petsc-r%d-XXXXXX",
                            directory(dir), (int)rank));
    const int fd = mkstemp(path);
    PetscCheck(fd >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN,
               "uturn: cannot make a disk level file in %s: %s", directory(dir),
               strerror(errno));
    unlink(path);
    d->fd    = fd;
    d->slots = slots;
    PetscCall(PetscCalloc1((size_t)slots, &d->sums));
    const int err = slots * state_bytes > 0
                        ? posix_fallocate(fd, 0, (off_t)(slots * state_bytes))
                        : 0;
    PetscCheck(err == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE,
               "uturn: the disk level in %s cannot hold %llu bytes: %s",
               directory(dir), (unsigned long long)(slots * state_bytes),
               strerror(err));
    PetscFunctionReturn(0);
}

/* Close the file; the figures (bytes written, read, the peak) stay. */
PetscErrorCode uturn__petsc_disk_close(struct uturn__petsc_disk *d)
{
    PetscFunctionBegin;
    if (d->fd >= 0)
        close(d->fd);
    d->fd = -1;
    PetscCall(PetscFree(d->sums));
    d->slots = 0;
    d->held  = 0;
    PetscFunctionReturn(0);
}

/* pwrite() (from @p from) or pread() (into @p to) all of @p bytes, or
 * false with errno. */
static bool transfer(int fd, const void *from, void *to, uint64_t bytes,
                     uint64_t offset)
{
    const char *out = from;
    char *in        = to;
    while (bytes > 0) {
        const ssize_t n = out != NULL
                              ? pwrite(fd, out, (size_t)bytes, (off_t)offset)
                              : pread(fd, in, (size_t)bytes, (off_t)offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            errno = n == 0 ? EIO : errno;
            return false;
        }
        out = out != NULL ? out + n : NULL;
        in  = in != NULL ? in + n : NULL;
        bytes -= (uint64_t)n;
        offset += (uint64_t)n;
    }
    return true;
}

/* XXH3-64 of the parts, as of one buffer. */
static uint64_t sum_of(const struct uturn__petsc_parts *p)
{
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    for (int i = 0; i < 2; i++)
        if (p->bytes[i] > 0)
            XXH3_64bits_update(&st, p->in[i], (size_t)p->bytes[i]);
    return XXH3_64bits_digest(&st);
}

PetscErrorCode uturn__petsc_disk_write(struct uturn__petsc_disk *d,
                                       uint64_t index, uint64_t slot_bytes,
                                       const struct uturn__petsc_parts *p)
{
    PetscFunctionBegin;
    uint64_t offset = index * slot_bytes;
    for (int i = 0; i < 2; offset += p->bytes[i++])
        PetscCheck(transfer(d->fd, p->in[i], NULL, p->bytes[i], offset),
                   PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE,
                   "uturn: writing disk slot %llu: %s",
                   (unsigned long long)index, strerror(errno));
    const uint64_t bytes = p->bytes[0] + p->bytes[1];
    d->sums[index]       = sum_of(p);
    d->written += bytes;
    d->held += bytes;
    if (d->held > d->peak)
        d->peak = d->held;
    PetscFunctionReturn(0);
}

PetscErrorCode uturn__petsc_disk_read(struct uturn__petsc_disk *d,
                                      uint64_t index, uint64_t slot_bytes,
                                      uint64_t step,
                                      const struct uturn__petsc_parts *p)
{
    PetscFunctionBegin;
    uint64_t offset = index * slot_bytes;
    for (int i = 0; i < 2; offset += p->bytes[i++])
        PetscCheck(transfer(d->fd, NULL, p->out[i], p->bytes[i], offset),
                   PETSC_COMM_SELF, PETSC_ERR_FILE_READ,
                   "uturn: reading x_%llu from disk slot %llu: %s",
                   (unsigned long long)step, (unsigned long long)index,
                   strerror(errno));
    PetscCheck(sum_of(p) == d->sums[index], PETSC_COMM_SELF,
               PETSC_ERR_FILE_UNEXPECTED,
               "uturn: x_%llu read back from disk slot %llu differs from "
               "what was written (checksum)",
               (unsigned long long)step, (unsigned long long)index);
    d->read += p->bytes[0] + p->bytes[1];
    PetscFunctionReturn(0);
}
