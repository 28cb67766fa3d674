"""What pstswm and pstlab write, read back: the record schema, record sets, the manifest, algorithms, placement."""
