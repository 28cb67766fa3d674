/* A configured model run: a test case on a Gaussian grid, its initial state in the dynamics,
 * the time step choice and the diagnostics (error norms, invariants) at any time. */
#ifndef PST_MODEL_MODEL_H
#define PST_MODEL_MODEL_H

#include "model/diagnostics.h"
#include "model/setup/spectral_grid.h"
#include "model/stages/dynamics.h"
#include "model/transforms/transforms.h"

#include <stdbool.h>
#include <stdint.h>

/* Default time step: the largest divisor of a day (in whole seconds) whose Courant number
 * C = dt · c_max · M / a and inertial number 2Ω dt (the Coriolis term is explicit: leapfrog
 * needs 2Ω dt < 1) both stay at or below PST_COURANT_TARGET, c_max being the largest initial
 * wind speed (plus the largest gravity-wave speed √Φ for the explicit scheme), and that is
 * not longer than STSWM's T42 step scaled with resolution, PST_DT_T42_S · 42 / M: flows that
 * accelerate from rest (case 5 peaks at twice its initial wind) need that margin. */
#define PST_COURANT_TARGET 0.6
#define PST_DT_T42_S 2400.0

typedef struct pst_model_config {
    int test_case;
    double alpha;             /* rotation angle, cases 1 and 2 */
    /* Validated where the options are resolved (pst_spectral_grid_init).  In a run its one owner is
     * the model's copy of this config (pst_model.cfg): the dynamics and the transforms beside it
     * point at that grid, so they hold no sizes of their own and cannot outlive it. */
    pst_spectral_grid grid;
    int level_block;          /* levels per block, dividing grid.levels */
    double dt_s;              /* <= 0: PST_COURANT_TARGET default */
    bool explicit_scheme;
    double robert, hdiff;
    pst_fft_planner *fft;     /* the run's FFTW planner (--fftw-plan): every plan of the model goes through it */
    const pst_par *par;       /* parallel decomposition (NULL: serial); diagnostics are then collective */
    int pair_chunk;           /* latitude pairs per FFT/product chunk (0: sized for the cache; PST_WHOLE_CHUNK) */
    pst_blas blas;            /* the Legendre dgemms' library (loaded), or with blas_auto the one kept on a tie */
    bool blas_auto;           /* time the loadable libraries at set-up and use the faster (pst_blas_choose) */
    pst_leg_method legendre;  /* the Legendre kernel (legendre.h), or with legendre_auto the one kept on a tie */
    bool legendre_auto;
    bool legendre_isa_forced; /* the simd method's instruction-set path: legendre_isa, or the best the CPU runs */
    pst_leg_isa legendre_isa;
    int threads;              /* OpenMP threads of the time step's stages (0 or 1: one) ... */
    bool comm_threads;        /* ... or over its level blocks, each thread with its messages (dynamics.h) */
} pst_model_config;

typedef struct pst_ref_grids {
    double *h, *u, *v;        /* [nlat][nlon] */
} pst_ref_grids;

typedef struct pst_model {
    pst_model_config cfg;
    pst_dyn dyn;
    pst_sht sht;
    double phibar;            /* Φ̄, m² s⁻² */
    double speed0;            /* c_max of the Courant number at t = 0, m/s */
    double courant;           /* of the time step in use */
    double inertial;          /* 2Ω dt */
    double *lon, *lat;        /* radians [nlon], [nlat] */
    double *hs, *f;           /* surface height, Coriolis parameter [nlat][nlon] */
    double *f_spec;           /* Coriolis coefficients [ncoef][2] */
    pst_invariants inv0;
    double *spec[3];          /* scratch coefficient arrays */
    double *grid[6];          /* scratch grids: h, u, v, eta, and two more */
} pst_model;

enum { PST_MODEL_NCHECKSUMS = 3 };
extern const char *const pst_model_checksum_names[PST_MODEL_NCHECKSUMS]; /* "eta", "div", "phi" */

typedef struct pst_model_diag {
    double t_s;
    bool has_norms;
    pst_norms norms;
    pst_invariants inv;
    double mass_rel, energy_rel, enstrophy_rel;
    double max_speed, courant;
    /* FNV-1a 64 of each field's coefficients (η, δ, Φ': pst_model_checksum_names), level by level
     * in (m, n) order (checksum.h); false when the state was not computed (skeleton runs). */
    bool has_checksums;
    uint64_t checksum[PST_MODEL_NCHECKSUMS];
} pst_model_diag;

void pst_model_init(pst_model *m, const pst_model_config *cfg);
/* Bytes pst_model_init will allocate on this rank, within about 20 % of the growth of its
 * resident set from T170 up (tests/cmake/model.cmake checks this against getrusage). */
double pst_model_memory_bytes(const pst_model_config *cfg);
void pst_model_free(pst_model *m);

/* Courant number of dt for the largest speed c (m/s). */
double pst_model_courant(const pst_model *m, double dt_s, double c);

/* Grid fields of one level (h total height, u, v, eta absolute vorticity) into m->grid[0..3]. */
void pst_model_level_grids(pst_model *m, int level);

/* Diagnostics at time t_s over all levels.  Norms against ref if given, else against the
 * analytic solution for cases 1 and 2, else none. */
void pst_model_diagnose(pst_model *m, double t_s, const pst_ref_grids *ref, pst_model_diag *out);

/* The time loop (collective over the decomposition's communicator when parallel). */
typedef struct pst_model_integrate_opts {
    long long steps;
    long long warmup;         /* steps left out of stage_s and comm_s */
    bool keep_going;          /* step on past a non-finite state (the driver's --no-verify) */
    long long diag_every;     /* call on_diag after every diag_every-th step but the last (0: never) */
    void (*on_diag)(void *arg, pst_model *m, long long step); /* outside the step timing */
    void *arg;
} pst_model_integrate_opts;

typedef struct pst_model_integration {
    double *step_s;           /* [steps]: each step's time, the slowest rank's (caller frees) */
    long long steps_run;
    double stage_s[PST_NSTAGES]; /* mean per timed step, the largest over ranks (the stage events' slowest_s) */
    double
        comm_s[2]; /* FFT and Legendre communication per timed step, the largest over ranks (fft_comm, legendre_comm) */
    double wait_s[2]; /* --sync-wait: the barriers before the FFT and Legendre communication (fft_wait,
                       * legendre_wait) per timed step, the largest over ranks; 0 without */
    double
        thread_wait_s; /* the master's wait for the other threads after the chain, per timed step, largest over ranks */
    /* The stages without communication (fourier, grid, spectral: the same work on every rank), per
     * timed step on the rank slowest and fastest in their sum (world ranks): a core the host runs
     * slower shows here, and the other ranks wait for it at every exchange.  Zero on one rank. */
    struct {
        double slowest_s, fastest_s;
        int slowest_rank, fastest_rank;
    } local_stages;
    pst_event_stats events[PST_EVENTS_MAX]; /* the stages' timer events over the timed steps and the ranks */
    int nevents;
    long long blowup_step;    /* the first step leaving a non-finite state on some rank (0: none) */
} pst_model_integration;

/* Runs o->steps steps from the current state (a barrier first when parallel: set-up ends
 * unevenly); every rank agrees after each step, outside its timing, whether the state is still
 * finite, and the run stops at the first step that is not unless o->keep_going. */
void pst_model_integrate(pst_model *m, const pst_model_integrate_opts *o, pst_model_integration *r);

/* Reference grids on this model's grid from spectral coefficients (ζ, δ, Φ' at truncation
 * M_ref ≥ 1, any M_ref: truncated or zero-padded to M) and Φ̄. */
void pst_model_reference(pst_model *m, int M_ref, const double *zeta, const double *div, const double *phi,
                         double phibar, pst_ref_grids *out);
void pst_ref_grids_free(pst_ref_grids *r);

#endif
