import pytest

from rnnrepro.errors import ConfigError
from rnnrepro.book.profiles import Chapter, Param, check_profile

CH = Chapter(key="demo", title="Demo", paper="-", notebook="book/chapters/demo.md", params=(
    Param("seed", int, fast=0, full=0, low=0),
    Param("n", int, fast=10, full=1000, low=1, high=5000),
    Param("lr", float, fast=0.1, full=0.01, low=0.0),
    Param("method", str, fast="gd", full="adam", choices=("gd", "adam")),
    Param("plot", bool, fast=False, full=True),
))


def test_profiles_give_their_values():
    assert CH.resolve("fast").n == 10 and CH.resolve("full").n == 1000
    p = CH.resolve("full", {"n": 7, "lr": 1})
    assert (p.profile, p.n, p.lr, p.method) == ("full", 7, 1.0, "adam")
    assert isinstance(p.lr, float)


@pytest.mark.parametrize("overrides, words", [
    ({"nope": 1}, "valid parameters are seed, n, lr, method, plot"),
    ({"n": 0}, "out of range"),
    ({"n": 1.5}, "wrong type"),
    ({"n": True}, "wrong type"),
    ({"method": "sgd"}, "one of 'gd', 'adam'"),
    ({"plot": 1}, "wrong type"),
])
def test_bad_overrides_name_the_valid_choices(overrides, words):
    with pytest.raises(ConfigError, match=words):
        CH.resolve("fast", overrides)


def test_unknown_profile():
    with pytest.raises(ConfigError, match="choose one of fast, full"):
        CH.resolve("medium")
    assert check_profile("fast") == "fast"


def test_parse_from_command_line_text():
    assert CH.param("n").parse("12") == 12
    assert CH.param("lr").parse("1e-3") == 0.001
    assert CH.param("plot").parse("true") is True and CH.param("plot").parse("0") is False
    with pytest.raises(ConfigError, match="not a valid int"):
        CH.param("n").parse("ten")
    with pytest.raises(ConfigError, match="not a bool"):
        CH.param("plot").parse("yes please")
    with pytest.raises(ConfigError, match="out of range"):
        CH.param("n").parse("99999")


def test_invalid_declarations():
    with pytest.raises(ConfigError):
        Param("n", int, fast=0, full=1, low=1)
    with pytest.raises(TypeError):
        Param("x", list, fast=[], full=[])
    with pytest.raises(ValueError, match="duplicate"):
        Chapter("d", "t", "p", "n.md", params=(Param("a", int, 1, 1), Param("a", int, 1, 1)))
    with pytest.raises(ValueError, match="reserved"):
        Chapter("d", "t", "p", "n.md", params=(Param("profile", str, "a", "a"),))
