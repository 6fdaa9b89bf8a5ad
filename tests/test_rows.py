import math

import pytest

from rnnrepro.book.rows import reads_as_zero, show


@pytest.mark.parametrize("value, fmt, expected", [
    (1.26e-08, ".2f", "1.26e-08"),      # miller.fig1a.rnn_scaling printed "0.00"
    (9.2e-07, ".3f", "9.2e-07"),        # cayci.prop3.frequency printed "0.000"
    (-3.2e-11, ".3f", "-3.2e-11"),
    (4e-4, ".1%", "0.04%"),
    (0.0, ".2f", "0"), (-0.0, ".3f", "0"), (0, "d", "0"),
    (0.25, ".2f", "0.25"), (0.004, ".2f", "0.004"), (0.006, ".2f", "0.01"), (1234.6, ".4g", "1235"),
    (2.5e-9, ".1e", "2.5e-09"), (17, "d", "17"),
])
def test_a_number_never_reads_as_zero_unless_it_is(value, fmt, expected):
    assert show(value, fmt) == expected
    assert reads_as_zero(show(value, fmt)) == (value == 0)


def test_booleans_text_and_missing_values():
    assert show(True, ".2f") == "yes" and show(False, ".4g") == "no"
    assert show("closely matches $k$", ".2f") == "closely matches $k$" and show(None, ".2f") == "—"
    assert show(math.nan, ".2f") == "nan" and show(math.inf, ".3g") == "inf"


def test_reads_as_zero():
    assert reads_as_zero("0.00") and reads_as_zero("-0.0%") and reads_as_zero("0.00e+00")
    assert not reads_as_zero("1e-08") and not reads_as_zero("0.01") and not reads_as_zero("nan")
