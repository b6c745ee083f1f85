/* Scratch directories for the storage tests: a fresh parent per test
 * (mkdtemp), what it holds, and its removal. Header-only (static inline),
 * so only the tests that include it carry it. Needs _GNU_SOURCE (nftw's
 * FTW_DEPTH) before the first include. */
#ifndef UTURN_SCRATCH_DIR_H_INCLUDED
#define UTURN_SCRATCH_DIR_H_INCLUDED

#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* out = a/b; a path too long for PATH_MAX is a broken test. */
static inline char *scratch_join(char out[PATH_MAX], const char *a,
                                 const char *b)
{
    const int n = snprintf(out, PATH_MAX, "%s/%s", a, b);
    if (n < 0 || n >= PATH_MAX)
        abort();
    return out;
}

/* A new empty directory under base; false if it cannot be made. */
static inline bool scratch_make(const char *base, char out[PATH_MAX])
{
    snprintf(out, PATH_MAX, "%s/test_storage.XXXXXX", base);
    return mkdtemp(out) != NULL;
}

/* Entries of dir other than "." and ".." (-1: cannot read it). */
static inline int scratch_count(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return -1;
    int n = 0;
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}

/* The path of the entry of dir whose name starts with prefix (the last
 * one found); the number of such entries. */
static inline int scratch_find(const char *dir, const char *prefix,
                               char out[PATH_MAX])
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return -1;
    int n = 0;
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d))
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) {
            scratch_join(out, dir, e->d_name);
            n++;
        }
    closedir(d);
    return n;
}

static inline int scratch_unlink(const char *path, const struct stat *s,
                                 int type, struct FTW *ftw)
{
    (void)s;
    (void)type;
    (void)ftw;
    return remove(path);
}

/* Remove dir and everything under it (after a failed check, too). */
static inline void scratch_remove(const char *dir)
{
    nftw(dir, scratch_unlink, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
