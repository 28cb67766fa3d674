#include "cmd/model/model_algos.h"

#include "core/cli.h"
#include "core/errors.h"
#include "core/toml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const pst_model_presets[] = {"gen", "coll", "opt", "DTH", "DR", NULL};
const char *const pst_model_spectral_updates[] = {"partitioned", "replicated", NULL};

/* One stage of a tuned file: [fft] or [legendre] with `algorithm = "NAME"` and
 * `NAME = { protocol = "C,V", overlap = true|false, ... }`. */
typedef struct tuned_stage {
    char algorithm[32], protocol[32];
    bool overlap, has_choice;
} tuned_stage;

/* A stage's table: `algorithm = "NAME"` and its choice `NAME = { protocol = "C,V", overlap = B }`.
 * Returns NULL or the reason it is unusable, in err. */
static const char *read_stage(const char *path, const pst_toml *table, const char *name, tuned_stage *st, char *err,
                              size_t errlen)
{
    const pst_toml *alg = pst_toml_get(table, "algorithm");
    if (!alg) return snprintf(err, errlen, "%s has no [%s] algorithm", path, name), err;
    if (alg->kind != PST_TOML_STRING || strlen(alg->str) >= sizeof st->algorithm)
        return snprintf(err, errlen, "%s:%d: [%s] algorithm needs a quoted name", path, alg->line, name), err;
    snprintf(st->algorithm, sizeof st->algorithm, "%s", alg->str);
    const pst_toml *choice = pst_toml_get(table, alg->str);
    if (!choice) {
        const pst_algorithm *known = pst_algorithm_find(st->algorithm, 0);
        if (!strcmp(st->algorithm, "coll") || (known && known->collective)) return NULL;
        return snprintf(err, errlen, "%s has no protocol line for [%s] algorithm %s", path, name, st->algorithm), err;
    }
    const pst_toml *protocol = pst_toml_get(choice, "protocol"), *overlap = pst_toml_get(choice, "overlap");
    if (choice->kind != PST_TOML_TABLE || !protocol || protocol->kind != PST_TOML_STRING ||
        strlen(protocol->str) >= sizeof st->protocol)
        return snprintf(err, errlen, "%s:%d: %s needs protocol = \"C,V\"", path, choice->line, st->algorithm), err;
    if (overlap && overlap->kind != PST_TOML_BOOL)
        return snprintf(err, errlen, "%s:%d: %s overlap is %s, not true or false", path, overlap->line, st->algorithm,
                        pst_toml_kind_name(overlap->kind)), err;
    snprintf(st->protocol, sizeof st->protocol, "%s", protocol->str);
    st->overlap = overlap && overlap->b;
    st->has_choice = true;
    return NULL;
}

/* Read the [fft] and [legendre] choices of a `pstlab tune` file on every rank (the path may be
 * node-local).  A stage the grid does not distribute (PX = 1: no FFT stage; PY = 1: no Legendre
 * stage) need not be there: pstlab tune has no kernel to time for it and leaves it out. */
static void read_tuned(const char *path, const bool needed[2], tuned_stage st[2])
{
    static const char *const names[2] = {"fft", "legendre"};
    char err[512];
    memset(st, 0, 2 * sizeof *st);
    pst_toml *root = pst_toml_read(path, err, sizeof err);
    const char *problem = root ? NULL : err;
    for (int s = 0; s < 2 && !problem; s++) {
        const pst_toml *table = pst_toml_get(root, names[s]);
        if (table && table->kind != PST_TOML_TABLE)
            problem = (snprintf(err, sizeof err, "%s:%d: %s is not a [table]", path, table->line, names[s]), err);
        else if (table || needed[s])
            problem = read_stage(path, table, names[s], &st[s], err, sizeof err);
    }
    pst_toml_free(root);
    char message[600];
    if (problem) snprintf(message, sizeof message, "--tuned: %s", problem);
    pst_usage_check_all(problem ? message : NULL);
}

static const pst_protocol *protocol_of(const char *transport, const char *option, const char *code)
{
    const pst_protocol *p = pst_protocol_find(transport, code);
    if (!p)
        pst_usage_error("%s: unknown protocol '%s' for transport %s (see pstswm swap --transport %s --help)", option,
                        code, transport, transport);
    if (pst_protocol_unavailable(p))
        pst_usage_error("%s: protocol %s (%s) %s", option, p->code, p->slug, pst_protocol_unavailable(p));
    return p;
}

/* A near-square grid for P ranks, more rows than columns (PX = largest divisor <= sqrt P): a
 * column's sums carry 3 spectral fields (its gather of the new state 5), a row's transposes all 13
 * grid fields twice each way, so rows cost fewer bytes.  Each rank sends per step at T85L16 (PMPI
 * counts): 3.83 MB in 8 messages on 1x2, 22.79 MB in 256 on 2x1; 8.60 MB in 80 on 2x4, 9.55 MB in
 * 392 on 4x2. */
static void default_grid(int P, int *px, int *py)
{
    int x = 1;
    for (int d = 1; d * d <= P; d++)
        if (P % d == 0) x = d;
    *px = x;
    *py = P / x;
}

/* The stages' algorithms, protocols and overlap for the grid cfg->PX x cfg->PY. */
static void resolve_algorithms(const model_algos *a, pst_par_config *cfg)
{
    const char *preset = a->preset ? a->preset : "gen";
    if (a->tuned && strcmp(preset, "opt")) pst_usage_error("--tuned: the file is read by --preset opt only");
    if (!strcmp(preset, "opt") && !a->tuned)
        pst_usage_error("--preset opt needs --tuned FILE (written by pstlab tune)");

    pst_transport_require(a->transport);
    /* 0,6 (MPI_Sendrecv) is two-sided; a one-sided transport's presets use its first protocol. */
    const char *generic = strcmp(a->transport, "mpi") ? pst_protocol_at(a->transport, 0)->code : "0,6";
    const char *fft = "srtrans", *leg = "halfsum", *fft_code = generic, *leg_code = generic;
    tuned_stage st[2];
    if (!strcmp(preset, "coll")) {
        fft = leg = "coll";
    } else if (!strcmp(preset, "DR")) {
        fft = "dfft";
        leg = "ringpipe";
    } else if (!strcmp(preset, "opt")) {
        read_tuned(a->tuned, (const bool[2]){cfg->PX > 1, cfg->PY > 1}, st);
        if (st[0].algorithm[0]) fft = st[0].algorithm;
        if (st[1].algorithm[0]) leg = st[1].algorithm;
        fft_code = st[0].has_choice ? st[0].protocol : generic;
        leg_code = st[1].has_choice ? st[1].protocol : generic;
        cfg->fft_overlap = st[0].overlap;
        cfg->leg_overlap = st[1].overlap;
    }
    if (a->fft) fft = a->fft;
    if (a->legendre) leg = a->legendre;
    cfg->fft = pst_algorithm_find(fft, PST_ALG_STAGE_FFT);
    cfg->legendre = pst_algorithm_find(leg, PST_ALG_STAGE_LEGENDRE);
    const char *src = !strcmp(preset, "opt") ? "--tuned" : NULL;
    char names[256];
    if (!cfg->fft)
        pst_usage_error("%s: unknown FFT algorithm '%s' (allowed: %s)", a->fft || !src ? "--fft" : src, fft,
                        pst_algorithm_names(PST_ALG_STAGE_FFT, names, sizeof names));
    if (!cfg->legendre)
        pst_usage_error("%s: unknown Legendre algorithm '%s' (allowed: %s)", a->legendre || !src ? "--legendre" : src,
                        leg, pst_algorithm_names(PST_ALG_STAGE_LEGENDRE, names, sizeof names));
    if (pst_algorithm_unavailable(cfg->fft))
        pst_usage_error("%s %s: %s", a->fft || !src ? "--fft" : src, fft, pst_algorithm_unavailable(cfg->fft));
    if (pst_algorithm_unavailable(cfg->legendre))
        pst_usage_error("%s %s: %s", a->legendre || !src ? "--legendre" : src, leg,
                        pst_algorithm_unavailable(cfg->legendre));
    if (!strcmp(preset, "DTH") && cfg->fft->family != PST_FAMILY_TRANSPOSE) {
        size_t used = 0;
        for (size_t i = 0; i < pst_nalgorithms; i++)
            if (pst_algorithms[i].family == PST_FAMILY_TRANSPOSE)
                used += (size_t)snprintf(names + used, used < sizeof names ? sizeof names - used : 0, "%s, ",
                                         pst_algorithms[i].name);
        pst_usage_error("--preset DTH is a double transpose: --fft must be one of %scoll (got '%s')", names, a->fft);
    }
    if (a->protocol) fft_code = leg_code = a->protocol;
    const char *fopt = a->fft_protocol ? "--fft-protocol" : a->protocol ? "--protocol" : "--tuned";
    const char *lopt = a->leg_protocol ? "--legendre-protocol" : a->protocol ? "--protocol" : "--tuned";
    if (a->fft_protocol) fft_code = a->fft_protocol;
    if (a->leg_protocol) leg_code = a->leg_protocol;
    cfg->fft_protocol = protocol_of(a->transport, fopt, fft_code);
    cfg->leg_protocol = protocol_of(a->transport, lopt, leg_code);
    if (a->overlap) cfg->fft_overlap = cfg->leg_overlap = true;
    cfg->spectral_partitioned = !a->spectral_update || strcmp(a->spectral_update, "replicated") != 0;
}

void model_algos_resolve(const model_algos *a, int nranks, const pst_spectral_grid *g, pst_par_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    if (a->grid) {
        char err[160];
        if (pst_parse_grid(a->grid, &cfg->PX, &cfg->PY, err, sizeof err)) pst_usage_error("--grid: %s", err);
        if (cfg->PX * cfg->PY != nranks)
            pst_usage_error("--grid %s needs %d ranks (running on %d)", a->grid, cfg->PX * cfg->PY, nranks);
    } else {
        default_grid(nranks, &cfg->PX, &cfg->PY);
    }
    resolve_algorithms(a, cfg);
    if (!a->grid && cfg->PX != cfg->PY && pst_par_check(cfg->PX, cfg->PY, cfg->fft, cfg->legendre, g)) {
        /* The default does not fit (e.g. more rows than latitude pairs): the other way round. */
        pst_par_config other = {.PX = cfg->PY, .PY = cfg->PX};
        resolve_algorithms(a, &other);
        if (!pst_par_check(other.PX, other.PY, other.fft, other.legendre, g)) *cfg = other;
    }
    const char *why = pst_par_check(cfg->PX, cfg->PY, cfg->fft, cfg->legendre, g);
    if (why)
        pst_usage_error("--grid %dx%d does not fit T%d on %d x %d: %s", cfg->PX, cfg->PY, g->M, g->nlat, g->nlon, why);
}
