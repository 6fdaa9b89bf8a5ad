import urllib.request

from rnnrepro.site.local_server import serve


def test_serve_gives_a_local_url(tmp_path):
    (tmp_path / "p.html").write_text("hello")
    with serve(tmp_path) as base:
        assert base.startswith("http://127.0.0.1:")
        assert urllib.request.urlopen(f"{base}/p.html", timeout=5).read() == b"hello"
