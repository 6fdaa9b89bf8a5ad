from pybtex.database import parse_string

from rnnrepro.book.paths import REPO
from rnnrepro.site.sphinxext.bibliography import AuthorYearLabels, author_year

BIB = """
@misc{a, author = {{Computational Modelling Group, University of Southampton}}, title = {t}, year = {2024}}
@article{b, author = {Li, Zhong and Han, Jiequn and E, Weinan}, title = {t}, year = {2021}}
@article{c, author = {Miller, John and Hardt, Moritz}, title = {t}, year = {2018}}
@article{d, author = {Miller, John and Hardt, Moritz}, title = {u}, year = {2018}}
@article{e, author = {Flynn, Sean}, title = {t}, year = {2015}}
@misc{f, author = {Wouts, Marc and others}, title = {t}, year = {2025}}
"""


def test_labels_are_author_year_and_unique():
    entries = list(parse_string(BIB, "bibtex").entries.values())
    assert author_year(entries[0]) == "Computational Modelling Group, University of Southampton 2024"
    assert author_year(entries[1]) == "Li et al. 2021" and author_year(entries[4]) == "Flynn 2015"
    assert author_year(entries[5]) == "Wouts et al. 2025"
    labels = list(AuthorYearLabels().format_labels(entries))
    assert labels[2:4] == ["Miller and Hardt 2018a", "Miller and Hardt 2018b"]


def test_every_entry_of_the_book_gets_a_label():
    from pybtex.database import parse_file

    entries = list(parse_file(str(REPO / "book" / "references.bib")).entries.values())
    labels = list(AuthorYearLabels().format_labels(entries))
    assert len(set(labels)) == len(entries) and all(label[-4:-1].isdigit() or label[-1].isdigit() for label in labels)


def test_bibliography_entries_are_list_items():
    """docutils' bibliography markup (a role="list" of deprecated doc-biblioentry entries, which axe-core
    reports as a list without its required children) becomes a list of listitems; nothing else changes."""
    from docutils.core import publish_parts

    from rnnrepro.site.sphinxext.bibliography import accessible_citations

    body = publish_parts(".. [A2020] First.\n.. [B2021] Second.\n\nSee [A2020]_.\n", writer_name="html5")["body"]
    assert body.count('role="doc-biblioentry"') == 2 and '<div role="list" class="citation-list">' in body
    fixed = accessible_citations(body)
    assert fixed.count('role="listitem"') == 2 and "doc-biblioentry" not in fixed
    assert fixed.replace('role="listitem"', 'role="doc-biblioentry"') == body
