import math

import pytest

from rnnrepro.book.criteria import Above, AtLeast, AtMost, Below, Between, IsTrue, Within


@pytest.mark.parametrize("crit, yes, no", [
    (AtMost(1.0), 1.0, 1.0001),
    (AtLeast(1.0), 1.0, 0.999),
    (Below(1.0), 0.999, 1.0),
    (Above(1.0), 1.001, 1.0),
    (Between(0.0, 1.0), 0.5, 1.5),
    (Within(2.0, atol=0.1), 2.05, 2.2),
    (Within(100.0, rtol=0.01), 100.9, 101.1),
])
def test_numeric_criteria(crit, yes, no):
    assert crit.holds(yes) and not crit.holds(no)
    assert isinstance(crit.describe(), str) and crit.describe()


@pytest.mark.parametrize("bad", [math.nan, math.inf, "1", None, True])
def test_non_numbers_never_hold(bad):
    assert not AtMost(10.0).holds(bad)


def test_is_true_needs_a_real_bool():
    assert IsTrue().holds(True)
    assert not IsTrue().holds(1) and not IsTrue().holds(False)


def test_invalid_criteria_are_refused():
    with pytest.raises(ValueError):
        Between(2.0, 1.0)
    with pytest.raises(ValueError):
        Within(1.0)


def test_descriptions():
    assert AtMost(0.5).describe() == "≤ 0.5"
    assert Between(0, 1).describe() == "∈ [0, 1]"
    assert "±" in Within(1.0, atol=0.1, rtol=0.01).describe()


def test_num_never_shows_a_bound_as_a_rounder_number():
    from rnnrepro.book.criteria import AtMost, num

    assert AtMost(1 + 1e-6).describe() == "≤ 1.000001"          # not "≤ 1": the tolerance shows
    assert [num(x) for x in (0.5, 1e-12, 2.5e4, 0.1 + 0.2, -0.10536051565782628)] == \
        ["0.5", "1e-12", "25000", "0.3", "-0.105361"]
