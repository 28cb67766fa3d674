"""pstlab: run pstswm suites, turn records into reports, compare result sets, tune presets."""

__version__ = "0.1.0"
