"""The errors a user can meet, each with a one-line message that says what to do."""


class RnnreproError(Exception):
    """Base class: a user-facing error whose message is one line naming the fix."""


class ConfigError(RnnreproError, ValueError):
    """Unknown chapter, profile or parameter, or a parameter value of the wrong type or range."""


class DataError(RnnreproError, FileNotFoundError):
    """A data root or file that is missing, or a file whose sha256 does not match."""
