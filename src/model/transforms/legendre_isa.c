#include "model/transforms/legendre_isa.h"

#include "model/transforms/legendre_isa_paths.h"

#include <string.h>

const char *const pst_leg_isa_names[PST_NLEG_ISAS] = {"baseline", "avx2", "avx512"};

static const pst_leg_isa_ops paths[PST_NLEG_ISAS] = {
    {pst_leg_generate_baseline, pst_leg_synth_baseline, pst_leg_analysis_baseline},
#ifdef PST_LEG_HAVE_AVX2
    {pst_leg_generate_avx2, pst_leg_synth_avx2, pst_leg_analysis_avx2},
#else
    {0},
#endif
#ifdef PST_LEG_HAVE_AVX512
    {pst_leg_generate_avx512, pst_leg_synth_avx512, pst_leg_analysis_avx512},
#else
    {0},
#endif
};

bool pst_leg_isa_built(pst_leg_isa isa) { return paths[isa].synth != NULL; }

bool pst_leg_isa_cpu_has(pst_leg_isa isa)
{
    __builtin_cpu_init();
    switch (isa) {
    case PST_LEG_ISA_AVX512: return __builtin_cpu_supports("avx512f");
    case PST_LEG_ISA_AVX2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    default: return true; /* SSE2 is x86-64's baseline */
    }
}

pst_leg_isa pst_leg_isa_best(void)
{
    for (int k = PST_NLEG_ISAS - 1; k > 0; k--)
        if (pst_leg_isa_built((pst_leg_isa)k) && pst_leg_isa_cpu_has((pst_leg_isa)k)) return (pst_leg_isa)k;
    return PST_LEG_ISA_BASELINE;
}

int pst_leg_isa_parse(const char *name)
{
    if (!strcmp(name, "auto")) return -1;
    for (int k = 0; k < PST_NLEG_ISAS; k++)
        if (!strcmp(name, pst_leg_isa_names[k])) return k;
    return -2;
}

const char *pst_leg_isa_refusal(pst_leg_isa isa)
{
    if (!pst_leg_isa_built(isa)) return "this build has no such path (the compiler lacked its flags)";
    if (!pst_leg_isa_cpu_has(isa)) return "this CPU lacks the instructions";
    return NULL;
}

const pst_leg_isa_ops *pst_leg_isa_ops_of(pst_leg_isa isa) { return &paths[isa]; }
