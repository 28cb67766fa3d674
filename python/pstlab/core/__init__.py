"""The bottom layer: errors and exit codes, paths, grouping, units and number formatting, tie-set names."""
