import matplotlib.pyplot as plt

from rnnrepro.book.plotting import FULL_WIDTH, new_figure, unlabelled_axes, use_book_style


def test_style_has_white_background():
    use_book_style()
    assert plt.rcParams["figure.facecolor"] == "white" and plt.rcParams["savefig.facecolor"] == "white"


def test_new_figure_size_and_label_check():
    fig, axes = new_figure(2, height=2.0)
    assert tuple(fig.get_size_inches()) == (FULL_WIDTH, 2.0) and len(axes) == 2
    axes[0].plot([0, 1], [0, 1])
    axes[0].set_title("a")
    assert unlabelled_axes(fig) == ["a"]
    axes[0].set(xlabel="x", ylabel="y")
    assert unlabelled_axes(fig) == []
    plt.close(fig)
