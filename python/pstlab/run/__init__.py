"""Running suites: suite files, launching pstswm through scripts/pstrun, the run loop with its manifest, tune."""
