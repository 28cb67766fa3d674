#include "model/stages/flops.h"

#include "model/transforms/spectral.h"

#include <math.h>

pst_flops pst_flops_per_level(const pst_dyn_config *cfg)
{
    double K = (double)pst_spec_count(cfg->grid->M), J = cfg->grid->nlat, N = cfg->grid->nlon;
    pst_flops f;
    f.legendre = 56.0 * K * (J / 2) + 10.0 * K;
    f.fourier = (22.0 + 50.0) * (cfg->grid->M + 1) * J;
    f.fft = 13.0 * J * 2.5 * N * log2(N);
    f.grid = (9.0 + (cfg->robert != 0 ? 15.0 : 0.0)) * J * N;
    f.spectral = (cfg->scheme == PST_SCHEME_ADVECTION ? 4.0 : 10.0) * K + (cfg->hdiff > 0 ? 6.0 * K : 0.0);
    f.total = f.legendre + f.fourier + f.fft + f.grid + f.spectral;
    return f;
}

double pst_flops_recurrence_per_step(const pst_dyn_config *cfg)
{
    const double K = (double)pst_spec_count(cfg->grid->M), blocks = (double)cfg->grid->levels / cfg->level_block;
    return 10.0 * (K + cfg->grid->M + 1) * (cfg->grid->nlat / 2) * blocks;
}

double pst_flops_of_stage(const pst_flops *f, pst_stage stage)
{
    switch (stage) {
    case PST_STAGE_FFT: return f->fft;
    case PST_STAGE_LEGENDRE: return f->legendre;
    case PST_STAGE_FOURIER: return f->fourier;
    case PST_STAGE_GRID: return f->grid;
    case PST_STAGE_SPECTRAL: return f->spectral;
    default: return 0;
    }
}
