import urllib.request

from rnnrepro.site.local_server import serve


def test_serve_gives_a_local_url(tmp_path):
    (tmp_path / "p.html").write_text("hello")
    with serve(tmp_path) as base:
        assert base.startswith("http://127.0.0.1:")
        assert urllib.request.urlopen(f"{base}/p.html", timeout=5).read() == b"hello"


def test_serve_can_put_a_snippet_at_the_top_of_every_page(tmp_path):
    (tmp_path / "p.html").write_text("<html><head><title>t</title></head><body>b</body></html>")
    (tmp_path / "a.txt").write_text("<head>")
    with serve(tmp_path, inject="<script>1</script>") as base:
        page = urllib.request.urlopen(f"{base}/p.html", timeout=5).read()
        assert page == b"<html><head><script>1</script><title>t</title></head><body>b</body></html>"
        assert urllib.request.urlopen(f"{base}/a.txt", timeout=5).read() == b"<head>"
