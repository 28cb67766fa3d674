/* The template of the Fourier-space combinations of one latitude pair (step_combine.c), W =
 * COMBINE_W levels of one field at a time as one vector of W coefficients: contiguous in a
 * Legendre-buffer piece (one load or store), W lines apart in the chunk's Fourier lines (moved 16
 * bytes at a time).  Each coefficient goes through the same operations in the same order whatever
 * W, so the results do not depend on it.  Included once per width by step_combine.c. */
#define COMBINE_CAT2(a, b) a##_##b
#define COMBINE_CAT(a, b) COMBINE_CAT2(a, b)
#define COMBINE_FN(name) COMBINE_CAT(name, COMBINE_W)

typedef double COMBINE_FN(lvec) __attribute__((vector_size(16 * COMBINE_W)));
typedef long long COMBINE_FN(lmask) __attribute__((vector_size(16 * COMBINE_W)));

/* Statement macros, not functions: a vector argument wider than the baseline's registers would
 * change the calling convention between the clones. */
#define LV_SCATTER(q, stride, v)                                                                                       \
    do {                                                                                                               \
        const COMBINE_FN(lvec) v_ = (v);                                                                               \
        for (int j_ = 0; j_ < COMBINE_W; j_++)                                                                         \
            cstore((q) + (size_t)j_ * (stride), (cvec){v_[2 * j_], v_[2 * j_ + 1]});                                   \
    } while (0)
#define LV_LOAD(v, p) memcpy(&(v), (p), sizeof(v))
#define LV_STORE(p, v)                                                                                                 \
    do {                                                                                                               \
        const COMBINE_FN(lvec) v_ = (v);                                                                               \
        memcpy((p), &v_, sizeof v_);                                                                                   \
    } while (0)
/* The gather is one vector initializer: a vector built in memory 16 bytes at a time and read
 * whole would stall on store forwarding.  LV_TIMES_I: i (re + i im) per coefficient, re and im
 * swapped and the new re negated (a product by −1 is exact). */
#if COMBINE_W == 1
#define LV_GATHER(v, q, s) ((void)(s), LV_LOAD(v, q))
#define LV_TIMES_I(v) (__builtin_shuffle((v), (lmask_1){1, 0}) * (lvec_1){-1.0, 1.0})
#elif COMBINE_W == 2
#define LV_GATHER(v, q, s) ((v) = (lvec_2){(q)[0], (q)[1], (q)[s], (q)[(s) + 1]})
#define LV_TIMES_I(v) (__builtin_shuffle((v), (lmask_2){1, 0, 3, 2}) * (lvec_2){-1.0, 1.0, -1.0, 1.0})
#elif COMBINE_W == 4
#define LV_GATHER(v, q, s)                                                                                             \
    ((v) = (lvec_4){(q)[0], (q)[1], (q)[s], (q)[(s) + 1], (q)[2 * (s)], (q)[2 * (s) + 1], (q)[3 * (s)],                \
                    (q)[3 * (s) + 1]})
#define LV_TIMES_I(v)                                                                                                  \
    (__builtin_shuffle((v), (lmask_4){1, 0, 3, 2, 5, 4, 7, 6}) * (lvec_4){-1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0})
#else
#error "COMBINE_W is 1, 2 or 4"
#endif

/* 1b of pair p: north = even + odd, south = even − odd (H sums: the reverse) and the winds,
 * straight into the chunk's Fourier lines, along m so each line is written sequentially. */
COMBINE_CLONES
static void COMBINE_FN(inverse_pair)(const pst_dyn *d, const pst_chunk *c, int p)
{
    typedef COMBINE_FN(lvec) lvec;
    const int B = d->B, l0 = c->l0;
    const size_t nc = (size_t)d->fstride, fs = 2 * field_lines(d) * nc, ls = 4 * nc; /* doubles: field, level */
    const double *base = (const double *)d->four_inv[c->t];
    for (int i = 0; i < d->par->nmx; i++) {
        const double m = d->par->mx[i];
        const double *piece = d->legbuf + leg_piece(d, (size_t)d->par->leg_slot[i], (size_t)p, (size_t)d->npairs);
        const double *xe = piece + inv_x(d, 0), *xo = piece + inv_x(d, 1), *ye = piece + inv_y(d, 0),
                     *yo = piece + inv_y(d, 1);
        prefetch_piece(d, i, p, l0, false);
        for (int l = 0; l < d->Bc; l += COMBINE_W) {
            const int lb = l0 + l; /* level in the block */
            lvec e[PST_DYN_NSPEC], o[PST_DYN_NSPEC], he[2], ho[2];
            for (int f = 0; f < PST_DYN_NSPEC; f++) {
                LV_LOAD(e[f], xe + (f * B + lb) * 2);
                LV_LOAD(o[f], xo + (f * B + lb) * 2);
            }
            for (int f = 0; f < 2; f++) {
                LV_LOAD(he[f], ye + (f * B + lb) * 2);
                LV_LOAD(ho[f], yo + (f * B + lb) * 2);
            }
            for (int h = 0; h < 2; h++) {
                lvec x[PST_DYN_NSPEC], y[2];
                for (int f = 0; f < PST_DYN_NSPEC; f++) x[f] = h ? e[f] - o[f] : e[f] + o[f];
                for (int f = 0; f < 2; f++) y[f] = h ? ho[f] - he[f] : he[f] + ho[f];
                double *q = (double *)base + inv_line(d, p - c->p0, h, 0, l) * nc * 2 + 2 * (size_t)i;
                LV_SCATTER(q + G_U * fs, ls, m * LV_TIMES_I(x[S_CHI]) - y[0]); /* U, V as in wind.h */
                LV_SCATTER(q + G_V * fs, ls, m * LV_TIMES_I(x[S_PSI]) + y[1]);
                LV_SCATTER(q + G_ETA * fs, ls, x[S_ETA]);
                LV_SCATTER(q + G_DIV * fs, ls, x[S_DIV]);
                LV_SCATTER(q + G_PHI * fs, ls, x[S_PHI]);
            }
        }
    }
}

/* 5a of pair p (step_combine.c has the formulas), along m so each Fourier line is read
 * sequentially, into the Legendre buffer [m][pair][sP | aP | sH | aH]. */
COMBINE_CLONES
static void COMBINE_FN(forward_pair)(const pst_dyn *d, const pst_chunk *c, int p, const forward_coefs *k)
{
    typedef COMBINE_FN(lvec) lvec;
    const int B = d->B, l0 = c->l0;
    const size_t nc = (size_t)d->fstride, fs = 2 * field_lines(d) * nc, ls = 4 * nc, fb = 2 * (size_t)B;
    const double *base = (const double *)d->four_fwd[c->t];
    const double wn = k->wn, sn = k->sn, tau = k->tau, cphi = k->cphi, ckap = k->ckap;
    for (int i = 0; i < d->par->nmx; i++) {
        const double sm = sn * d->par->mx[i];
        double *piece = d->legbuf + leg_piece(d, (size_t)d->par->leg_slot[i], (size_t)p, (size_t)d->npairs);
        prefetch_piece(d, i, p, l0, true);
        for (int l = 0; l < d->Bc; l += COMBINE_W) {
            const double *qn = base + fwd_line(d, p - c->p0, 0, 0, l) * nc * 2 + 2 * (size_t)i;
            const double *qs = base + fwd_line(d, p - c->p0, 1, 0, l) * nc * 2 + 2 * (size_t)i;
            const size_t at = (size_t)(l0 + l) * 2; /* level l0 + l of field f at at + f fb */
            /* The combinations are linear: apply them to the symmetric and antisymmetric parts. */
            for (int par = 0; par < 2; par++) {
                lvec v[PST_DYN_NFWD];
                for (int f = 0; f < PST_DYN_NFWD; f++) {
                    lvec north, south;
                    LV_GATHER(north, qn + f * fs, ls);
                    LV_GATHER(south, qs + f * fs, ls);
                    v[f] = par ? north - south : north + south;
                }
                double *P = piece + fwd_p(d, par) + at, *H = piece + fwd_h(d, par) + at;
                LV_STORE(P + O_ETA * fb, wn * v[Q_ETA_OLD] - sm * LV_TIMES_I(v[Q_UETA]));
                LV_STORE(P + O_DIV * fb, wn * v[Q_DIV_OLD] + sm * LV_TIMES_I(v[Q_VETA]));
                LV_STORE(P + O_PHI * fb, wn * (v[Q_PHI_OLD] - cphi * v[Q_DIV_OLD]) - sm * LV_TIMES_I(v[Q_UPHI]));
                LV_STORE(P + O_KAPPA * fb, wn * (2.0 * tau * v[Q_ENERGY] + ckap * v[Q_PHI_OLD]));
                LV_STORE(H + O_ETA * fb, sn * v[Q_VETA]);
                LV_STORE(H + O_DIV * fb, sn * v[Q_UETA]);
                LV_STORE(H + O_PHI * fb, sn * v[Q_VPHI]);
            }
        }
    }
}

#undef LV_GATHER
#undef LV_SCATTER
#undef LV_LOAD
#undef LV_STORE
#undef LV_TIMES_I
#undef COMBINE_FN
#undef COMBINE_CAT
#undef COMBINE_CAT2
