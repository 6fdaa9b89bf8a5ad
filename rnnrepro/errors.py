"""The errors a user can meet, each with a one-line message that says what to do."""


class RnnreproError(Exception):
    """Base class: a user-facing error whose message is one line naming the fix."""


class ConfigError(RnnreproError, ValueError):
    """Unknown chapter, profile or parameter, or a parameter value of the wrong type or range."""


class DataError(RnnreproError, FileNotFoundError):
    """A data root or file that is missing, or a file whose sha256 does not match."""


def did_you_mean(name: str, choices) -> str:
    """``"did you mean 'miller'? "`` for the one of ``choices`` closest to a mistyped ``name`` (difflib), or
    "" when none is close: the start of a message that then lists every choice."""
    import difflib

    near = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.6)
    return f"did you mean {near[0]!r}? " if near else ""
