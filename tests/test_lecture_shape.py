"""The lecture measures of a built chapter page (rnnrepro.site.lecture_shape), on small pages."""

from rnnrepro.site import lecture_shape
from rnnrepro.site.lecture_shape import measure

PAGE = """<html><body><nav>Contents Home Next</nav><article>
<h1>A chapter</h1>
<p>In short. We read <a href="https://arxiv.org/abs/1805.10369">the paper</a> \\(x^2 + y\\) here.</p>
<div class="proof lemma admonition"><p class="admonition-title">Lemma 2 (Miller &amp; Hardt)</p>
<p>If a then b.</p></div>
<div class="cell tag_hide-input"><details class="hide above-input"><summary>Show code</summary>
<div class="cell_input"><pre>x = 1  # many words of code here that no reader reads</pre></div></details></div>
<figure><img src="a.svg"/><figcaption>Figure one shows it.</figcaption></figure>
<details class="sd-dropdown"><summary>More</summary><p>Folded words are not read by one who skims.</p></details>
<div class="exercise admonition"><p class="admonition-title">Exercise 1 (Fewer steps)</p><p>Run it.</p></div>
<div class="solution dropdown admonition"><p class="admonition-title">Solution</p><p>It stops there.</p></div>
</article></body></html>"""


def test_words_outside_folds_leave_out_code_formulas_folds_and_navigation():
    shape = measure(PAGE)
    # heading 2 + "In short. We read the paper here." 7 + box 4 + 4 + caption 4 + exercise 4 + 2 = 27
    assert shape.words == 27
    assert shape.boxes == ["Lemma 2 (Miller & Hardt)"] and shape.exercises == ["Exercise 1 (Fewer steps)"]
    assert shape.solutions == 1 and shape.paper_link_before_figure and shape.problems() == []


def test_each_shortfall_is_named():
    long = "<p>" + "word " * 151 + "</p>"
    page = (PAGE.replace("Lemma 2 (Miller &amp; Hardt)", "Lemma (Miller &amp; Hardt)")
            .replace('<a href="https://arxiv.org/abs/1805.10369">the paper</a>', "the paper")
            .replace("Exercise 1 (Fewer steps)", "Exercise (Fewer steps)")
            .replace('<div class="solution dropdown admonition">', '<div class="other">')
            .replace("<h1>A chapter</h1>", "<h1>A chapter</h1>" + long))
    problems = measure(page).problems()
    assert len(problems) == 5 and "1 paragraphs over 150 words: [151]" in problems[0]
    assert "no link to the paper above the first figure" in problems
    many = PAGE.replace("<h1>A chapter</h1>", "<h1>A chapter</h1>" + "<p>a b c d e f g h i j</p>" * 501)
    assert measure(many).problems()[0].startswith("5037 words outside folds (at most 5000)")


def test_a_paper_link_below_the_first_figure_does_not_count():
    page = PAGE.replace('<a href="https://arxiv.org/abs/1805.10369">the paper</a>', "the paper").replace(
        "<figcaption>Figure one shows it.</figcaption>",
        '<figcaption>Figure one, <a href="https://arxiv.org/abs/1">paper</a>.</figcaption>')
    assert not measure(page).paper_link_before_figure


def test_the_command_prints_each_built_chapter(tmp_path, capsys):
    (tmp_path / "book" / "chapters").mkdir(parents=True)
    (tmp_path / "book" / "chapters" / "li.html").write_text(PAGE)
    assert lecture_shape.main([str(tmp_path)]) == 0
    assert capsys.readouterr().out.startswith("li        words    27")
    assert lecture_shape.main([str(tmp_path / "none")]) == 2
