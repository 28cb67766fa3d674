"""What pstswm and pstlab write, read back: the record schema, record sets, run headers in short, the manifest,
algorithms, placement."""
