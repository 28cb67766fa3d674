"""SHTns's equivalent of one level-step of pstswm's transforms, timed: 3 scalar syntheses + 1
vector synthesis, 3 scalar analyses + 1 vector analysis, orthonormal, on pstswm's Gaussian grid
(NLAT x NLON), SHTns's phi-contiguous layout, one thread.  Prints the best and the median time of
the set in seconds over REPS repetitions, as JSON, and the same of the set's FFTs alone: 5 c2r
(the syntheses') and 5 r2c (the analyses') of NLAT contiguous lines, through the FFTW library
SHTns is linked to, planned with FFTW_MEASURE on SIMD-aligned arrays; the rest of the set is
SHTns's Legendre work.  A yardstick for bench/model-vs-shtns.sh, run in its own venv: SHTns is
never a dependency of pstswm.
    shtns_set.py M NLAT NLON REPS"""
import ctypes
import ctypes.util
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


def fftw_arrays(fftw: ctypes.CDLL, count: int, doubles: int) -> list[np.ndarray]:
    """count zeroed arrays of `doubles` doubles from fftw_malloc (FFTW's SIMD alignment, the same for all)."""
    fftw.fftw_malloc.restype = ctypes.c_void_p
    arrays = []
    for _ in range(count):
        address = fftw.fftw_malloc(ctypes.c_size_t(doubles * 8))
        if not address:
            sys.exit("bench/model-vs-shtns: error: fftw_malloc failed")
        a = np.ctypeslib.as_array(ctypes.cast(address, ctypes.POINTER(ctypes.c_double)), shape=(doubles,))
        a[:] = 0.0
        arrays.append(a)
    return arrays


def fft_part():
    """A function timing the set's 10 FFTs once, in seconds: each c2r from a fresh copy of its Fourier
    lines (c2r overwrites its input; the copies are not timed), then each r2c from a synthesised grid."""
    fftw = ctypes.CDLL(ctypes.util.find_library("fftw3") or "libfftw3.so.3")
    fftw.fftw_plan_many_dft_r2c.restype = fftw.fftw_plan_many_dft_c2r.restype = ctypes.c_void_p
    nc = nlon // 2 + 1
    four, grid, spectra = fftw_arrays(fftw, 5, nlat * nc * 2), fftw_arrays(fftw, 5, nlat * nlon), []
    n = (ctypes.c_int * 1)(nlon)
    ptr = lambda a: a.ctypes.data_as(ctypes.c_void_p)  # noqa: E731
    measure = ctypes.c_uint(0)  # FFTW_MEASURE (overwrites the arrays: they are filled after)
    forward = ctypes.c_void_p(fftw.fftw_plan_many_dft_r2c(1, n, nlat, ptr(grid[0]), None, 1, nlon, ptr(four[0]), None,
                                                          1, nc, measure))
    inverse = ctypes.c_void_p(fftw.fftw_plan_many_dft_c2r(1, n, nlat, ptr(four[0]), None, 1, nc, ptr(grid[0]), None,
                                                          1, nlon, measure))
    for k in range(5):
        four[k][:] = 0.0  # planning left its own values; wavenumbers above M stay zero, as in SHTns's lines
        lines = four[k].reshape(nlat, nc, 2)
        lines[:, : M + 1] = rng.standard_normal((nlat, M + 1, 2))
        lines[:, 0, 1] = 0.0  # the m = 0 coefficient of a real line is real
        spectra.append(four[k].copy())
    four_at, grid_at = [ptr(a) for a in four], [ptr(a) for a in grid]  # numpy's pointer costs 15 us: not in the timing

    def once() -> float:
        elapsed_s = 0.0
        for k in range(5):  # each from lines just written, as SHTns's from its Legendre sums
            four[k][:] = spectra[k]
            t0 = time.perf_counter()
            fftw.fftw_execute_dft_c2r(inverse, four_at[k], grid_at[k])
            elapsed_s += time.perf_counter() - t0
        t0 = time.perf_counter()
        for k in range(5):
            fftw.fftw_execute_dft_r2c(forward, grid_at[k], four_at[k])
        return elapsed_s + time.perf_counter() - t0

    return once


fft_once = fft_part()
times, fft_times = [], []
for _ in range(reps):  # the set and its FFTs alone in turn, so the host's drift meets both alike
    t0 = time.perf_counter()
    one_set()
    times.append(time.perf_counter() - t0)
    fft_times.append(fft_once())
print(json.dumps({"M": M, "nlat": nlat, "nlon": nlon, "best_s": min(times), "median_s": statistics.median(times),
                  "fft_best_s": min(fft_times), "fft_median_s": statistics.median(fft_times),
                  "roundtrip_rel_error": roundtrip}))
