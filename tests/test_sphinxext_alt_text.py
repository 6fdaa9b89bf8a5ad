from docutils import nodes

from rnnrepro.site.sphinxext.alt_text import first_sentence, set_alt_text


def test_first_sentence_keeps_abbreviations_and_numbers_whole():
    assert first_sentence("Paper Fig. 1 replicated. The diagonal Elman RNN unrolled.") == "Paper Fig. 1 replicated."
    assert first_sentence("Not in the paper: Lemma 1 on real gradients. (a) tanh and (b) the logistic") == \
        "Not in the paper: Lemma 1 on real gradients."
    assert first_sentence("Rates as in Eq. 3 and Prop. 2, e.g. Adam vs. GD at 0.5.\n Next") == \
        "Rates as in Eq. 3 and Prop. 2, e.g. Adam vs. GD at 0.5."
    assert first_sentence("One clause only") == "One clause only"
    assert first_sentence(r"Paper Fig. 2, at reduced scale. g(i) = \|x\| against i.") == \
        "Paper Fig. 2, at reduced scale."
    assert first_sentence("Runs with truncation (eq. (5)) and the LSTM. More") == \
        "Runs with truncation (eq. (5)) and the LSTM."


def test_captioned_figures_get_alt_text_and_others_are_left_alone():
    fig = nodes.figure("", nodes.image(uri="_images/ab12.svg"), nodes.caption("", "Paper Fig. 2. More."))
    described = nodes.figure("", nodes.image(uri="x.png", alt="given"), nodes.caption("", "Cap. Two."))
    bare = nodes.image(uri="y.png")
    doc = nodes.section("", fig, described, bare)
    assert set_alt_text(doc) == 1
    assert fig[0]["alt"] == "Paper Fig. 2." and described[0]["alt"] == "given" and "alt" not in bare
