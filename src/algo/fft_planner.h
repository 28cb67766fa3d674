/* The one owner of FFTW planning in a run: the planner effort (--fftw-plan, the same word for
 * `pstswm model` and `pstswm kernel`), the wisdom file (--fftw-wisdom), plans agreed over ranks,
 * and the count of the plans made.  Every FFTW plan of the program is made here: the model's
 * batched FFTs (model/transforms/fft.c, model/transforms/pfft.c), its set-up transforms
 * (model/transforms/transforms.c), the distributed FFT's local transforms (algo/dfft.c) and the kernel's reference
 * (cmd/kernel/kernel_cases.c).
 *
 * FFTW's planner and its wisdom are the process's; the planner object holds what a run asked of
 * them.  It lives in algo, the lowest layer that calls FFTW. */
#ifndef PST_ALGO_FFT_PLANNER_H
#define PST_ALGO_FFT_PLANNER_H

#include <fftw3.h>
#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct pst_fft_planner {
    const char *effort;       /* --fftw-plan: "estimate", "measure" or "patient" */
    unsigned flags;           /* its FFTW flags */
    int plans;                /* plans made through this planner in this process */
    int plans_from_wisdom;    /* of them, those FFTW took from wisdom without timing candidates */
} pst_fft_planner;

/* The efforts --fftw-plan takes (NULL-terminated), for the option's choices. */
extern const char *const pst_fft_efforts[];

/* A planner for --fftw-plan EFFORT; false (and *p untouched) when the name is unknown. */
bool pst_fft_planner_init(pst_fft_planner *p, const char *effort);

/* What a plan is for.  TIMED: a transform the run times (the model's step, the kernel's cases),
 * planned with the run's effort.  SETUP: one run a few times at set-up, in the diagnostics or for
 * a reference result, planned with FFTW_ESTIMATE whatever the effort: timing candidates would
 * cost more than they save, and the initial state stays the same bits under every effort. */
typedef enum pst_fft_use { PST_FFT_TIMED, PST_FFT_SETUP } pst_fft_use;

/* Makes one plan with the FFTW flags given (the caller adds its own, e.g. FFTW_UNALIGNED);
 * NULL when FFTW cannot (with FFTW_WISDOM_ONLY: when it has no wisdom for it). */
typedef fftw_plan pst_fft_make_fn(void *arg, unsigned flags);

/* One plan: from wisdom alone when FFTW has it (counted as such), else planned for `use`.
 * Exit 3 naming `what` when FFTW cannot plan it. */
fftw_plan pst_fft_plan(pst_fft_planner *p, pst_fft_use use, pst_fft_make_fn *make, void *arg, const char *what);

/* plan_all(arg) on every rank of comm (collective; it plans through pst_fft_plan), with the same plans wherever the
 * problem is the same: rank 0 plans, and its wisdom goes to the others, which then make the same plans without timing
 * candidates.  Planned apart, each rank times FFTW's candidates under its own load and may keep another plan (T85L16 on
 * 1x2 with `measure`: the two ranks' plans differed in every launch), so ranks doing equal transforms would do them at
 * different speeds.  comm MPI_COMM_NULL, or one rank: plan_all alone. */
void pst_fft_plan_agreed(MPI_Comm comm, void (*plan_all)(void *arg), void *arg);

/* A wisdom file (--fftw-wisdom): load before planning, so the plans of an earlier run on this
 * machine come back without timing (same plans, same results bit for bit, planning in
 * milliseconds); save after, atomically (PATH.partial, then renamed).  Load: a missing file is
 * no error (*loaded false); NULL when fine, else the message in err. */
const char *pst_fft_wisdom_load(const char *path, bool *loaded, char *err, size_t len);
const char *pst_fft_wisdom_save(const char *path, char *err, size_t len);

#endif
