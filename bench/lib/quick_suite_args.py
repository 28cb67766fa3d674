import sys, tomllib
suite, reps = tomllib.load(open(sys.argv[1], "rb")), sys.argv[2]
for e in suite["experiment"]:
    if e["name"] in ("kernel", "swap-protocols"):
        args = list(e["args"])
        if reps and "--reps" in args:
            args[args.index("--reps") + 1] = reps
        print(" ".join([e["name"], e["subcommand"], *args]))
