import glob, json, os, statistics, sys
work, launches, level = sys.argv[1], int(sys.argv[2]), sys.argv[3]
for nbytes in (8, 1048576):
    ours = [min(r["t_min"] for r in map(json.loads, open(f)) if r.get("type") == "point" and r["bytes"] == nbytes)
            for f in glob.glob(os.path.join(work, f"pstswm.{nbytes}.*.jsonl"))]
    mini = [float(open(f).read()) for f in glob.glob(os.path.join(work, f"minimal.{nbytes}.*"))]
    lev = [float(open(f).read()) for f in glob.glob(os.path.join(work, f"level.{nbytes}.*"))]
    print(f"{nbytes:>8} B  half round trip, best of {launches} launches (median of launches):"
          f"  pstswm {min(ours)*1e6:.3f} us ({statistics.median(ours)*1e6:.3f})"
          f"  minimal {min(mini)*1e6:.3f} us ({statistics.median(mini)*1e6:.3f})"
          f"  minimal at {level} {min(lev)*1e6:.3f} us ({statistics.median(lev)*1e6:.3f})")
    print(f"{'':>8}    ratio pstswm / minimal: best {min(ours)/min(mini):.3f}, median {statistics.median(ours)/statistics.median(mini):.3f};"
          f"  {level} / single: best {min(lev)/min(mini):.3f}, median {statistics.median(lev)/statistics.median(mini):.3f}")
