"""SimGrid SMPI: platform files, calibrating a node, predict, its sensitivity, the Worley Table 5 validation."""
