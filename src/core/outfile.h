/* The --out file, written so that a failed run never destroys what was there and a reader never
 * mistakes an unfinished file for a finished one: records go to FILE.partial, renamed to FILE
 * only when the run succeeds.  A path that is not a regular file (a device such as /dev/full, a
 * FIFO, /dev/stdout) is written directly, with no temporary beside it. */
#ifndef PST_OUTFILE_H
#define PST_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

/* Open PATH for writing (rank 0).  Returns 0, or an errno value with nothing created. */
int pst_outfile_open(const char *path);

/* Append len bytes with one write() per call where the kernel allows; a failed write (ENOSPC,
 * EIO, a closed FIFO) aborts the job with exit 3 naming the file. */
void pst_outfile_write(const void *buf, size_t len);

/* Success: flush to stable storage and put the file in place (rename, then sync the directory).
 * A failure there is exit 3 naming the file. */
void pst_outfile_commit(void);

/* Failure on the way out.  usage: nothing of this run is kept (exit 2 leaves no file); else the
 * partial records stay in FILE.partial and are named on stderr. */
void pst_outfile_abandon(bool usage);

bool pst_outfile_is_open(void);

/* "pstswm: records so far kept in FILE.partial\n", composed when the file is opened, for the
 * watchdog's async-signal-safe exit; empty when there is nothing to keep. */
const char *pst_outfile_kept_note(size_t *len);

#endif
