"""One module per pstswm subcommand (registry.BENCHES), and hybrid for the model's ranks x threads splits:
keys, labels, metrics, rounds, verdict cases and fits; no rendering (pstlab.report.sections renders them)."""
