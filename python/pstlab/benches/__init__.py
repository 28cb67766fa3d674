"""One module per pstswm subcommand: keys, labels, metrics, rounds, verdict cases and fits; no rendering."""
