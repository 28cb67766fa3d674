#define _DEFAULT_SOURCE 1 /* realpath (the value glibc itself gives it, so a second definition agrees) */
#include "core/outfile.h"

#include "core/errors.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct {
    int fd;
    bool direct;        /* not a regular file: written in place, no rename */
    char final[PATH_MAX];
    char partial[PATH_MAX + 16];
    char note[PATH_MAX + 64];
    size_t note_len;
} out = {.fd = -1};

static bool under(const char *path, const char *dir) { return !strncmp(path, dir, strlen(dir)); }

/* Decided with lstat: a symlink to a regular file gets its .partial beside the target (the
 * rename then replaces the target, not the link); anything else that exists and is not a
 * regular file, or lies under /dev or /proc, is written directly. */
static int choose(const char *path)
{
    struct stat st;
    out.direct = under(path, "/dev/") || under(path, "/proc/");
    snprintf(out.final, sizeof out.final, "%s", path);
    if (!out.direct && lstat(path, &st) == 0) {
        if (S_ISLNK(st.st_mode)) {
            char target[PATH_MAX];
            if (!realpath(path, target)) return errno == ENOENT ? 0 : errno; /* dangling: create at path */
            struct stat ts;
            out.direct = under(target, "/dev/") || under(target, "/proc/") ||
                         (stat(target, &ts) == 0 && !S_ISREG(ts.st_mode));
            if (!out.direct) snprintf(out.final, sizeof out.final, "%s", target);
        } else if (!S_ISREG(st.st_mode)) {
            if (S_ISDIR(st.st_mode)) return EISDIR;
            out.direct = true;
        }
    }
    return 0;
}

int pst_outfile_open(const char *path)
{
    int err = choose(path);
    if (err) return err;
    pst_on_failure(pst_outfile_abandon);
    if (out.direct) {
        out.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        out.note_len = 0;
    } else {
        snprintf(out.partial, sizeof out.partial, "%s.partial", out.final);
        out.fd = open(out.partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        out.note_len = (size_t)snprintf(out.note, sizeof out.note, "%s: records so far kept in %s\n", pst_progname(),
                                        out.partial);
    }
    return out.fd < 0 ? errno : 0;
}

bool pst_outfile_is_open(void) { return out.fd >= 0; }

static noreturn void failed(const char *what, int err)
{
    const char *name = out.direct ? out.final : out.partial;
    pst_fatal(PST_EXIT_FAILED, "--out %s: %s failed: %s", name, what, strerror(err));
}

void pst_outfile_write(const void *buf, size_t len)
{
    const char *p = buf;
    while (len) {
        ssize_t n = write(out.fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) failed("write", n < 0 ? errno : EIO);
        p += n;
        len -= (size_t)n;
    }
}

static void sync_directory_of(const char *path)
{
    char copy[PATH_MAX];
    snprintf(copy, sizeof copy, "%s", path);
    int dfd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd); /* best effort: some file systems refuse to sync a directory */
        close(dfd);
    }
}

void pst_outfile_commit(void)
{
    if (out.fd < 0) return;
    /* A device or a pipe may not support fsync (EINVAL/EROFS): only real failures count. */
    if (fsync(out.fd) != 0 && errno != EINVAL && errno != EROFS) failed("fsync", errno);
    if (close(out.fd) != 0) failed("close", errno);
    out.fd = -1;
    if (!out.direct) {
        if (rename(out.partial, out.final) != 0) failed("rename", errno);
        sync_directory_of(out.final);
    }
    out.note_len = 0;
}

void pst_outfile_abandon(bool usage)
{
    if (out.fd < 0) return;
    close(out.fd);
    out.fd = -1;
    if (out.direct) return;
    if (usage) unlink(out.partial);
    else fprintf(stderr, "%s", out.note);
    out.note_len = 0;
}

const char *pst_outfile_kept_note(size_t *len)
{
    *len = out.note_len;
    return out.note;
}
