"""The errors pstlab reports as one clear message instead of a traceback."""

# Any other exception is a pstlab bug: a traceback and this exit code (BSD's EX_SOFTWARE), apart
# from bad input's 2, so a test or a script can tell the two apart.
EXIT_BUG = 70


class PstlabError(Exception):
    """Bad input or environment (missing directory, malformed record, unknown suite...): exit 2."""

    exit_code = 2


class RunFailed(PstlabError):
    """An experiment or a pstswm run failed: exit 3, as pstswm itself does."""

    exit_code = 3
