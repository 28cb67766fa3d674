"""SHTns's equivalent of one level-step of pstswm's transforms, timed: 3 scalar syntheses + 1
vector synthesis, 3 scalar analyses + 1 vector analysis, orthonormal, on pstswm's Gaussian grid
(NLAT x NLON), SHTns's default phi-contiguous layout, one thread.  Prints the best and the median
time of the set in seconds over REPS repetitions, as JSON.  A yardstick for bench/model-vs-shtns.sh,
run in its own venv: SHTns is never a dependency of pstswm.
    shtns_set.py M NLAT NLON REPS"""
import json
import statistics
import sys
import time

import numpy as np
import shtns

M, nlat, nlon, reps = (int(a) for a in sys.argv[1:5])
sh = shtns.sht(M, M, 1, shtns.sht_orthonormal)
sh.set_grid(nlat, nlon, shtns.sht_gauss | shtns.SHT_PHI_CONTIGUOUS)
rng = np.random.default_rng(1)
ylm = [sh.spec_array() for _ in range(5)]
for y in ylm:
    y[:] = rng.standard_normal(sh.nlm) + 1j * rng.standard_normal(sh.nlm)
    y[: M + 1] = y[: M + 1].real  # m = 0: real coefficients
for y in ylm[3:]:
    y[0] = 0  # a vector field has no degree-0 spheroidal or toroidal part
spat = [sh.spat_array() for _ in range(5)]


def one_set():
    for k in range(3):
        sh.SH_to_spat(ylm[k], spat[k])
    sh.SHsphtor_to_spat(ylm[3], ylm[4], spat[3], spat[4])
    for k in range(3):
        sh.spat_to_SH(spat[k], ylm[k])
    sh.spat_to_SHsphtor(spat[3], spat[4], ylm[3], ylm[4])


original = [y.copy() for y in ylm]
one_set()  # first touch; a synthesis and analysis round trip must give the coefficients back
roundtrip = max(float(np.max(np.abs(y - o))) / float(np.max(np.abs(o))) for y, o in zip(ylm, original, strict=True))
if not roundtrip < 1e-10:
    sys.exit(f"bench/model-vs-shtns: error: the round trip lost the coefficients ({roundtrip:.1e}): "
             "SHTns is not transforming what it should")
times = []
for _ in range(reps):
    t0 = time.perf_counter()
    one_set()
    times.append(time.perf_counter() - t0)
print(json.dumps({"M": M, "nlat": nlat, "nlon": nlon, "best_s": min(times), "median_s": statistics.median(times),
                  "roundtrip_rel_error": roundtrip}))
