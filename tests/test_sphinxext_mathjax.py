import pytest
import yaml

from rnnrepro.site.sphinxext import mathjax as sphinx_mathjax
from rnnrepro.errors import RnnreproError
from rnnrepro.book.paths import REPO


def test_the_local_copy_holds_what_the_pages_load(tmp_path):
    n = sphinx_mathjax.copy_mathjax(tmp_path)
    root = tmp_path / "mathjax"
    assert (root / "tex-mml-chtml.js").stat().st_size > 500_000
    assert list((root / "output" / "chtml" / "fonts" / "woff-v2").glob("MathJax_Main-Regular.woff"))
    assert (root / "input" / "tex" / "extensions").is_dir() and 50 < n < 1000


def test_config_points_mathjax_at_the_local_copy():
    config = yaml.safe_load((REPO / "_config.yml").read_text())["sphinx"]
    assert "rnnrepro.site.sphinxext" in config["extra_extensions"]
    assert config["config"]["mathjax_path"] == sphinx_mathjax.MATHJAX_PATH


def test_a_cdn_mathjax_path_is_refused():
    class Config:
        mathjax_path = "https://cdn.example/mathjax/tex-mml-chtml.js"

    with pytest.raises(RnnreproError, match="mathjax_path"):
        sphinx_mathjax._check_config(None, Config())
