/* The time step of the spectral transform shallow water model (NCAR STSWM numerics).
 *
 * Prognostic variables: absolute vorticity η = ζ + f, divergence δ and geopotential deviation
 * Φ' = gh* − Φ̄ (h* the fluid depth), advanced as spectral coefficients; the winds U = u cosθ,
 * V = v cosθ are recovered from ζ and δ each step.  As in STSWM the previous time level is
 * kept on the grid, so a step is (per block of levels):
 *
 *   1. inverse Legendre: (η, δ, Φ', ψ', χ') coefficients → sums per parity        [legendre]
 *      and their north/south combination into Fourier U, V, η, δ, Φ'                 [fourier]
 *   2. 5 inverse FFTs per latitude and level                                          [fft]
 *   3. grid-point products Uη, Vη, UΦ', VΦ', E = (U²+V²)/(2(1−μ²)) + Φ_s            [grid]
 *   4. 8 forward FFTs: the 5 products and the previous level η, δ, Φ'                 [fft]
 *      (then the current η, δ, Φ' become the previous level)                          [grid]
 *   5. forward Legendre: the Fourier-space tendencies combined with the old level,
 *      λ-derivatives as im, μ-derivatives moved onto H by integration by parts          [fourier]
 *      and summed over latitudes                                                      [legendre]
 *   6. semi-implicit solve and new (ψ', χ') per coefficient                           [spectral]
 *
 * Leapfrog with the gravity-wave terms (−∇²Φ' in the δ equation, −Φ̄δ in the Φ' equation)
 * averaged over the old and new levels; the first step is a forward half step followed by a
 * centred step (STSWM).  Optional Robert–Asselin filter and implicit ∇⁴ diffusion (n = 1
 * undamped in η and δ).  Each stage works on explicit local ranges: latitude pairs (north and
 * its mirror south), the list of wavenumbers in the spectral layout, blocks of levels.  Steps
 * 1 (its north/south combination) to 5 (its Fourier-space combination) run chunk by chunk of
 * latitude pairs sized to stay in L2; the Legendre dgemms run over all local pairs, so the
 * forward sums (partial over local latitudes) can be reduced before the update.
 *
 * The files: this one sets up and gives access to the state; layout.c owns the buffers (shapes,
 * allocation, memory estimate); step.c runs the schedule of the stages, one file each (step.h). */
#ifndef PST_MODEL_DYNAMICS_H
#define PST_MODEL_DYNAMICS_H

#include "model/transforms/fft.h"
#include "model/transforms/legendre.h"
#include "model/setup/parallel.h"
#include "model/setup/spectral_grid.h"
#include "model/transforms/pfft.h"
#include "model/transforms/pleg.h"
#include "model/transforms/spectral.h"
#include "runtime/events.h"

#include <stdbool.h>

typedef enum pst_scheme {
    PST_SCHEME_SEMI_IMPLICIT,  /* gravity-wave terms implicit (default) */
    PST_SCHEME_EXPLICIT,       /* all terms at the centre level */
    PST_SCHEME_ADVECTION,      /* case 1: Φ' advected by the fixed initial winds */
} pst_scheme;

/* The stages a step's time is split into, as the flop count splits the work (flops.h): the
 * Legendre dgemms and their communication, the Fourier-space combinations around them (memory
 * bound: they turn the dgemms' wavenumber-major sums into latitude-major Fourier lines and back),
 * the FFTs and theirs, the grid-point products, the spectral update. */
typedef enum pst_stage {
    PST_STAGE_FFT, PST_STAGE_LEGENDRE, PST_STAGE_FOURIER, PST_STAGE_GRID, PST_STAGE_SPECTRAL, PST_NSTAGES
} pst_stage;
extern const char *const pst_stage_names[PST_NSTAGES]; /* "fft", "legendre", "fourier", "grid", "spectral" */

/* pair_chunk: one chunk per level block (one round of the row's transposes), however large. */
#define PST_WHOLE_CHUNK (-1)

typedef struct pst_dyn_config {
    const pst_spectral_grid *grid; /* kept by reference: it outlives the dynamics (the model's: pst_model_config) */
    int level_block;          /* levels per block, dividing grid->levels */
    double dt_s;
    pst_scheme scheme;
    double phibar;            /* Φ̄, m² s⁻² */
    double robert;            /* Robert–Asselin coefficient (0: off) */
    double hdiff;             /* ∇⁴ diffusion coefficient, m⁴ s⁻¹ (0: off) */
    int pair_chunk;           /* latitude pairs per FFT/product chunk, dividing the local pairs (0: fit L2;
                               * PST_WHOLE_CHUNK: all of them, with the block's levels, in one chunk) */
    pst_fft_planner *fft;     /* the run's FFTW planner (--fftw-plan); the step's plans count in it */
    const pst_par *par;       /* this rank's share (parallel.h); NULL: serial.  Kept by reference. */
    int threads;              /* OpenMP threads running the step's stages (0 or 1: one); MPI stays on the master ... */
    bool comm_threads;        /* ... or, with threads > 1, the level blocks are shared out among the threads, each
                               * running its blocks' whole substep, messages included (MPI_THREAD_MULTIPLE) */
    pst_blas blas;            /* the Legendre dgemms' library (loaded by the caller) ... */
    bool blas_auto;           /* ... or the fastest of the loadable ones, timed at set-up (blas: kept on a tie) */
    pst_leg_method legendre;  /* the Legendre products' P̄: tables or the recurrence (legendre.h) ... */
    bool legendre_auto;       /* ... or the fastest of them, timed at set-up after the BLAS (legendre: kept on a tie) */
    bool legendre_isa_forced; /* the simd method's instruction-set path: legendre_isa (one the CPU runs), or the best */
    pst_leg_isa legendre_isa;
} pst_dyn_config;

enum { PST_DYN_NSTATE = 3, PST_DYN_NSPEC = 5, PST_DYN_NFWD = 8, PST_DYN_NINV = 5 };

/* Pairs, longitudes and wavenumbers below are this rank's (pst_par); "pair" indexes are local
 * unless named global.  Serially the local share is everything and mx[i] = i. */
typedef struct pst_dyn {
    pst_dyn_config cfg;
    const pst_par *par;              /* cfg.par, or serial_par */
    pst_par serial_par;
    int npairs, nblocks, B, pair_chunk;
    int Bc;                          /* levels per chain chunk (FFT, products, FFT), dividing B */
    int nlon_local, nc, fstride;     /* local longitudes; FFTW's nlon/2+1; Fourier line stride */
    int sum_pairs;                   /* pairs the Legendre sums run over (all of them for transposes) */
    int nthreads;                    /* threads inside a stage (cfg.threads, at least 1; 1 with comm_threads) */
    int block_threads;               /* comm_threads: threads over the level blocks, each with its own view (else 1) */
    struct pst_dyn **views;          /* comm_threads: thread t > 0's view, views[t - 1]: this state with its own
                                      * Legendre buffers, chunk buffers, communicators and parallel stages */
    bool chunks_in_threads;          /* the chain's chunks are shared out among the threads, each with
                                      * its own chunk buffers (one processor column: no MPI inside the
                                      * chain); else each chunk's pairs are, in the master's buffers */
    double *mu, *coslat, *w;         /* Gaussian nodes, √(1 − μ²), weights [nlat], north to south */
    pst_spec_layout spec;            /* the owned wavenumbers */
    pst_legendre leg;
    pst_fft fft_inv, fft_fwd;        /* serial FFTs (one processor column) */
    pst_pfft *pfft_inv, *pfft_fwd;   /* the FFT stage across the row (PX > 1) */
    pst_pleg *pleg;                  /* the Legendre stage down the column (PY > 1) */
    double **state;                  /* per block: [ncoef][η, δ, Φ'][B][2] (ψ', χ' formed where summed) */
    double **grid_old;               /* per block: the previous level [pair][η, δ, Φ'][B][hemi][nlon_local] */
    /* Per thread (index: the chunk's t, or the thread's number in the Legendre sums): */
    double **grid_fwd;               /* one chunk: [pair][8][B][hemi][nlon_local]; products, then previous level */
    fftw_complex **four_inv,
        **four_fwd;                  /* one chunk of pairs: [pair][5 or 8][B][hemi][fstride], wavenumber mx[i] at i */
    double **grid_inv;               /* one chunk: [pair][5][B][hemi][nlon_local]: U, V, η, δ, Φ' */
    double *legbuf;                  /* Legendre sums (inverse) or inputs (forward): [mx][pair][28 B],
                                      * so each dgemm's rows are contiguous (the combinations read and
                                      * write one piece per wavenumber, prefetched ahead) */
    pst_leg_work *leg_work;          /* per thread: the recurrence's work area (leg.work) */
    double **leg_scratch; /* per thread: the inverse's [P̄ coefficients | H combination] of both parities: 2 (M/2 + 2) x
                             7B x 2 */
    double **sum_scratch; /* per thread: the forward sums of both parities before the κ fold: 2 (M/2 + 2) x 7B x 2 */
    double *legall;                  /* Legendre transposes: [owned m][global pair][28 B] */
    double *out;                     /* forward Legendre output [ncoef][η, δ*, Φ*][B][2] (κ folded into δ*) */
    double *out_next;                /* the level pipeline: the other block's output while one is summed */
    bool sums_in_vsum;               /* ringpipe, iallreduce: the column's vector sum computes the forward
                                      * sums block by block (pst_step_forward_sums_block) */
    bool spectral_partitioned;       /* each rank of the column updates the coefficients whose sums it
                                      * completes, inside the vector sum (step.c) */
    double **view_legbuf, **view_legall, **view_out; /* comm_threads: the other views' legbuf, legall, out */
    double *coriolis;                /* f coefficients [ncoef][2] */
    double *phis;                    /* surface geopotential at the rank's points [pair][hemi][nlon_local] */
    long steps_done;
    bool old_partial;                /* previous level still lacks its Robert filter term */
    pst_event_table events;          /* timer events: event k the stage pst_stage k, then fft_plan (the FFT
                                      * stage's set-up) and the parallel stages' fft_comm, legendre_comm */
    int thread_wait_event;           /* chunks_in_threads: the master's wait for the other threads after the chain */
    double fft_plan_s; /* set-up of the FFT stage: FFTW planning (and the row's plans), its event's time */
    double blas_trial_s[PST_NBLAS];  /* blas_auto: each library's best Legendre pass at set-up (NaN: not timed) */
    const char *blas_skipped;        /* blas_auto: why a library was not timed (NULL: all were) */
    double legendre_trial_s[PST_NLEG_METHODS]; /* legendre_auto: each kernel's best Legendre pass at set-up (NaN: not
                                                  timed) */
} pst_dyn;

void pst_dyn_init(pst_dyn *d, const pst_dyn_config *cfg);
/* Bytes pst_dyn_init will allocate on this rank (a serial run when cfg->par is NULL): every row
 * of the layout table (layout.c), which the layout test holds equal to what init leaves
 * allocated; not the FFTW plans nor the buffers of the parallel stages (pfft.c, pleg.c).
 * Computed without allocating them, so a run too large for the node is refused first. */
double pst_dyn_memory_bytes(const pst_dyn_config *cfg);
/* The truncation limit of `pstswm model` and `pstswm kernel`: the largest M whose time step, one
 * level on one rank on the rule's grid with the Legendre recurrence (no tables), has a memory
 * estimate (pst_dyn_memory_bytes) within memory_bytes, and at most PST_SPECTRAL_GRID_MAX_TRUNC
 * (0: not even T1).  No model run of a larger M fits on any number of ranks: they share these
 * buffers, but each also holds the serial transform and its grids (pst_model_memory_bytes), as
 * large as them (the layout test).  A run's whole estimate, its kernel's tables included, is
 * checked when it is planned.  The kernel, whose problem is the model's, takes the same limit. */
int pst_dyn_max_trunc(double memory_bytes);
/* Why truncation M is over that limit for this process's node (pst_memory_ceiling_bytes), naming
 * the estimate, or NULL. */
const char *pst_dyn_trunc_problem(long long M, char *err, size_t len);
void pst_dyn_free(pst_dyn *d);

/* Initial state of one level: η, δ, Φ' coefficients in the full layout ([ncoef][2]); each rank
 * takes its own. */
void pst_dyn_set_level(pst_dyn *d, int level, const double *eta, const double *div, const double *phi);
/* The whole level in the full layout on every rank (collective over the grid when parallel). */
void pst_dyn_get_level(const pst_dyn *d, int level, double *eta, double *div, double *phi);
/* Coriolis parameter coefficients (so ζ = η − f) and surface geopotential grid (NULL: none). */
void pst_dyn_set_forcing(pst_dyn *d, const double *coriolis, const double *phis);

/* Advance one time step dt (the first call does the forward half step and the centred step).
 * Returns false if a non-finite coefficient appeared (numerical blow-up). */
bool pst_dyn_step(pst_dyn *d);

#endif
