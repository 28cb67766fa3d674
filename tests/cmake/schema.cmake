# pstswm schema on 2 ranks: the record groups of every subcommand, printed once (tree.schema holds
# the --json form against docs/records.md and pstlab's copy).
pst_kind(mpi)
pst_output_test(schema.np2 2 "^swap / header:$" $<TARGET_FILE:pstswm> schema)
