"""Make the trimmed copy of two built pages kept here (cayci and miller as built at commit 4cebc0c).

    git worktree add /tmp/old 4cebc0c          # then a _toc.yml with only miller and cayci
    cd /tmp/old && PYTHONPATH=/tmp/old jupyter-book build .
    python tests/data/old_pages/make_copy.py /tmp/old/_build/html tests/data/old_pages

Keeps the pages' markup (claims tables, outputs, layout containers) and the assets the browser check
needs to lay them out and to run the theme's script (the theme's style sheets, the book's style sheet
as it was, pydata-sphinx-theme.js and the options it reads); drops cell sources, images and every other script (MathJax
included, so the math stays raw TeX: 4 MB).
"""

import shutil
import sys
from pathlib import Path

from bs4 import BeautifulSoup

PAGES = ("book/chapters/cayci.html", "book/chapters/miller.html")
ASSETS = ("_static/styles/theme.css", "_static/styles/pydata-sphinx-theme.css", "_static/basic.css",
          "_static/styles/sphinx-book-theme.css", "_static/rnnrepro.css")
SCRIPTS = ("_static/documentation_options.js", "_static/scripts/pydata-sphinx-theme.js")


def trim(page: str) -> str:
    soup = BeautifulSoup(page, "html.parser")
    for tag in soup.select("div.cell_input, img, figure, script[src], link[rel=stylesheet], link[rel=preload]"):
        tag.decompose()
    head = soup.head
    for css in ASSETS:
        head.append(soup.new_tag("link", rel="stylesheet", href=f"../../{css}"))
    head.append(soup.new_tag("script", src=f"../../{SCRIPTS[0]}"))
    head.append(soup.new_tag("script", src=f"../../{SCRIPTS[1]}", defer=""))
    return str(soup)


def main(site: Path, dest: Path) -> None:
    for page in PAGES:
        (dest / page).parent.mkdir(parents=True, exist_ok=True)
        (dest / page).write_text(trim((site / page).read_text(encoding="utf-8")), encoding="utf-8")
    for asset in ASSETS + SCRIPTS:
        (dest / asset).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(site / asset, dest / asset)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
