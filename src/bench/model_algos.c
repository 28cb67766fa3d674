#include "bench/model_algos.h"

#include "core/cli.h"
#include "core/errors.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const pst_model_presets[] = {"gen", "coll", "opt", "DTH", "DR", NULL};

/* One stage of a tuned file: [fft] or [legendre] with `algorithm = "NAME"` and
 * `NAME = { protocol = "C,V", overlap = true|false, ... }`. */
typedef struct tuned_stage {
    char algorithm[32], protocol[32];
    bool overlap, has_choice;
} tuned_stage;

/* The quoted string after `key =` in line, into out; -1 when absent. */
static int quoted_value(const char *line, const char *key, char *out, size_t len)
{
    const char *k = strstr(line, key);
    if (!k) return -1;
    const char *q = strchr(k + strlen(key), '"');
    const char *e = q ? strchr(q + 1, '"') : NULL;
    if (!e || (size_t)(e - q - 1) >= len) return -1;
    snprintf(out, len, "%.*s", (int)(e - q - 1), q + 1);
    return 0;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
    return s;
}

/* Read the [fft] and [legendre] choices of a `pstlab tune` file.  A stage the grid does not
 * distribute (PX = 1: no FFT stage; PY = 1: no Legendre stage) need not be there: pstlab tune
 * has no kernel to time for it and leaves it out. */
static void read_tuned(const char *path, const bool needed[2], tuned_stage st[2])
{
    FILE *f = fopen(path, "r");
    if (!f) pst_usage_error("--tuned: cannot read '%s'", path);
    memset(st, 0, 2 * sizeof *st);
    char buf[1024];
    int stage = -1, lineno = 0;
    /* Two passes: the chosen algorithm may come before or after its line. */
    for (int pass = 0; pass < 2; pass++) {
        rewind(f);
        stage = -1;
        lineno = 0;
        while (fgets(buf, sizeof buf, f)) {
            lineno++;
            char *hash = strchr(buf, '#');
            if (hash && !memchr(buf, '"', (size_t)(hash - buf))) *hash = 0;
            char *line = trim(buf);
            if (!*line) continue;
            if (*line == '[') {
                stage = !strcmp(line, "[fft]") ? 0 : !strcmp(line, "[legendre]") ? 1 : -1;
                continue;
            }
            if (stage < 0) continue;
            if (pass == 0 && !strncmp(line, "algorithm", 9) && (line[9] == ' ' || line[9] == '=')) {
                if (quoted_value(line, "algorithm", st[stage].algorithm, sizeof st[stage].algorithm))
                    pst_usage_error("--tuned: %s line %d: algorithm needs a quoted name", path, lineno);
            } else if (pass == 1 && st[stage].algorithm[0]) {
                size_t n = strlen(st[stage].algorithm);
                if (strncmp(line, st[stage].algorithm, n) || (line[n] != ' ' && line[n] != '=')) continue;
                if (quoted_value(line, "protocol", st[stage].protocol, sizeof st[stage].protocol))
                    pst_usage_error("--tuned: %s line %d: %s needs protocol = \"C,V\"", path, lineno, st[stage].algorithm);
                st[stage].overlap = strstr(line, "overlap = true") || strstr(line, "overlap=true");
                st[stage].has_choice = true;
            }
        }
    }
    fclose(f);
    static const char *const names[2] = {"fft", "legendre"};
    for (int s = 0; s < 2; s++) {
        if (!st[s].algorithm[0] && !needed[s]) continue;
        if (!st[s].algorithm[0]) pst_usage_error("--tuned: %s has no [%s] algorithm", path, names[s]);
        /* Kernel records name the collectives by their MPI routine. */
        if (!strcmp(st[s].algorithm, "alltoallv") || !strcmp(st[s].algorithm, "allreduce")) strcpy(st[s].algorithm, "coll");
        if (!st[s].has_choice && strcmp(st[s].algorithm, "coll"))
            pst_usage_error("--tuned: %s has no protocol line for [%s] algorithm %s", path, names[s], st[s].algorithm);
    }
}

static const pst_protocol *protocol_of(const char *transport, const char *option, const char *code)
{
    const pst_protocol *p = pst_protocol_find(transport, code);
    if (!p)
        pst_usage_error("%s: unknown protocol '%s' for transport %s (see pstswm swap --transport %s --help)", option, code,
                        transport, transport);
    return p;
}

static const char *alg_list(const char *(*name)(int), int n)
{
    static char buf[256];
    buf[0] = 0;
    for (int k = 0; k < n; k++) {
        strncat(buf, name(k), sizeof buf - strlen(buf) - 1);
        if (k + 1 < n) strncat(buf, ", ", sizeof buf - strlen(buf) - 1);
    }
    return buf;
}
static const char *fft_name(int k) { return pst_par_fft_name((pst_par_fft)k); }
static const char *leg_name(int k) { return pst_par_leg_name((pst_par_leg)k); }

/* A near-square grid for P ranks, more columns than rows (PY = largest divisor <= sqrt P). */
static void default_grid(int P, int *px, int *py)
{
    int y = 1;
    for (int d = 1; d * d <= P; d++)
        if (P % d == 0) y = d;
    *py = y;
    *px = P / y;
}

void model_algos_resolve(const model_algos *a, int nranks, int M, int nlat, int nlon, pst_par_config *cfg)
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
    const char *preset = a->preset ? a->preset : "gen";
    if (a->tuned && strcmp(preset, "opt")) pst_usage_error("--tuned: the file is read by --preset opt only");
    if (!strcmp(preset, "opt") && !a->tuned) pst_usage_error("--preset opt needs --tuned FILE (written by pstlab tune)");

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
    if (!strcmp(preset, "DTH") && a->fft && !(pst_par_fft_find(a->fft) >= 0 && pst_par_fft_find(a->fft) <= PST_PFFT_COLL))
        pst_usage_error("--preset DTH is a double transpose: --fft must be srtrans, swtrans, logtrans or coll (got '%s')", a->fft);
    if (a->fft) fft = a->fft;
    if (a->legendre) leg = a->legendre;
    int f = pst_par_fft_find(fft), l = pst_par_leg_find(leg);
    const char *src = !strcmp(preset, "opt") ? "--tuned" : NULL;
    if (f < 0)
        pst_usage_error("%s: unknown FFT algorithm '%s' (allowed: %s)", a->fft || !src ? "--fft" : src, fft,
                        alg_list(fft_name, PST_PFFT_NALGS));
    if (l < 0)
        pst_usage_error("%s: unknown Legendre algorithm '%s' (allowed: %s)", a->legendre || !src ? "--legendre" : src, leg,
                        alg_list(leg_name, PST_PLEG_NALGS));
    cfg->fft = (pst_par_fft)f;
    cfg->legendre = (pst_par_leg)l;
    if (a->protocol) fft_code = leg_code = a->protocol;
    const char *fopt = a->fft_protocol ? "--fft-protocol" : a->protocol ? "--protocol" : "--tuned";
    const char *lopt = a->leg_protocol ? "--legendre-protocol" : a->protocol ? "--protocol" : "--tuned";
    if (a->fft_protocol) fft_code = a->fft_protocol;
    if (a->leg_protocol) leg_code = a->leg_protocol;
    cfg->fft_protocol = protocol_of(a->transport, fopt, fft_code);
    cfg->leg_protocol = protocol_of(a->transport, lopt, leg_code);
    if (a->overlap) cfg->fft_overlap = cfg->leg_overlap = true;

    const char *why = pst_par_check(cfg->PX, cfg->PY, cfg->fft, cfg->legendre, M, nlat, nlon);
    if (why) pst_usage_error("--grid %dx%d does not fit T%d on %d x %d: %s", cfg->PX, cfg->PY, M, nlat, nlon, why);
}
