"""The errors pstlab reports as one clear message instead of a traceback."""


class PstlabError(Exception):
    """Bad input or environment (missing directory, malformed record, unknown suite...): exit 2."""

    exit_code = 2


class RunFailed(PstlabError):
    """An experiment or a pstswm run failed: exit 3, as pstswm itself does."""

    exit_code = 3
