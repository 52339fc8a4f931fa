"""experiment/overlaps.py: a figure's labels clear of each other, of its data and of its legend, as drawn.

Each figure here is drawn on purpose with or without a clash whose place is known by construction
(two texts at one point, a label on a line, a legend over the only point), so the expected answer
comes from the drawing's own coordinates, not from the checker.
"""

from __future__ import annotations

import pytest

from attention_workshop.experiment import figures, real_heads_page
from attention_workshop.experiment.overlaps import OverlapError, overlaps
from attention_workshop.experiment.plotting import LIGHT, pyplot, svg, unchecked


def _axes(size=(4.0, 3.0)):
    plt = pyplot(LIGHT)
    fig, ax = plt.subplots(figsize=size)
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 10)
    return plt, fig, ax


def test_two_labels_at_one_place_are_caught_and_named():
    """The deliberate break: two labels written at the same point."""
    plt, fig, ax = _axes()
    ax.text(5, 5, "water = money")
    ax.text(5, 5, "savings bank")
    found = overlaps(fig)
    plt.close(fig)
    assert found == ["text 'water = money' overlaps text 'savings bank'"]


def test_labels_apart_and_a_label_inside_its_bar_are_not_clashes():
    plt, fig, ax = _axes()
    ax.bar([2, 7], [8, 8], width=2.5)
    ax.text(
        2, 4, "0.8", ha="center", va="center"
    )  # wholly inside its bar: it labels it
    ax.text(7, 9, "0.8", ha="center", va="bottom")  # above the other bar
    ax.plot([0, 10], [0.5, 0.5])
    ax.set_title("two bars")
    found = overlaps(fig)
    plt.close(fig)
    assert found == []


def test_a_label_on_a_line_and_across_a_bar_edge_are_caught():
    plt, fig, ax = _axes()
    ax.plot([0, 10], [0, 10], label="diagonal")
    ax.text(5, 5, "on the line", ha="center", va="center")
    ax.bar([8], [3], width=2)  # spans x 7..9, y 0..3
    ax.text(9, 1.5, "edge", ha="center", va="center")
    found = overlaps(fig)
    plt.close(fig)
    assert "text 'on the line' overlaps line 'diagonal'" in found
    assert "text 'edge' overlaps rectangle" in found
    assert len(found) == 2, found


def test_a_legend_over_a_point_is_caught():
    """The bank-cosine figure's fault: the legend's corner holds a series' last point."""
    plt, fig, ax = _axes()
    ax.plot([1, 9.5], [5, 0.5], marker="o", linestyle="none", label="points")
    ax.legend(loc="lower right")
    found = overlaps(fig)
    plt.close(fig)
    assert found == ["the legend covers a marker of line 'points'"]


def test_a_cell_label_must_stay_in_its_cell():
    import numpy as np

    plt = pyplot(LIGHT)
    fig, ax = plt.subplots(figsize=(3.0, 3.0))
    ax.imshow(np.eye(2))
    ax.text(0, 0, "1.0", ha="center", va="center")  # in cell (0, 0)
    ax.text(0.5, 1, "a long label", ha="center", va="center")  # across cells
    found = overlaps(fig)
    plt.close(fig)
    assert found == ["text 'a long label' runs across the cells of the image"]


def test_themed_names_the_figure_the_scheme_and_both_artists():
    """Through the build's own path: svg() refuses the figure and themed() says which one."""

    def draw(p):
        plt = pyplot(p)
        fig, ax = plt.subplots(figsize=(3.0, 2.0))
        ax.text(0.5, 0.5, "first label")
        ax.text(0.5, 0.5, "second label")
        return svg(fig, "clash", "two labels on top of each other")

    with pytest.raises(OverlapError) as e:
        figures.themed("clash.svg", draw)
    assert e.value.problems == [
        "figure clash.svg (light scheme): text 'first label' overlaps text 'second label'"
    ]
    # a reader's own sentence may put its words anywhere: not strict, the figure is still drawn
    drawn = figures.themed("clash.svg", draw, strict=False)
    assert sorted(drawn) == ["clash-dark.svg", "clash.svg"]
    assert all(
        "first label" in s and "<title>clash</title>" in s for s in drawn.values()
    )


def test_unchecked_draws_the_same_bytes_and_checks_again_outside():
    """A reader's figures are drawn inside ``unchecked()``: the same SVG as the checked drawing
    (which raises with it), and the check is back once the block ends."""

    def draw():
        _, fig, ax = _axes()
        ax.text(5, 5, "first label")
        ax.text(5, 5, "second label")
        return svg(fig, "clash", "two labels on top of each other")

    with pytest.raises(OverlapError) as e:
        draw()
    with unchecked():
        assert draw() == e.value.svg
    with pytest.raises(OverlapError):
        draw()


def test_a_readers_own_sentence_is_drawn_even_where_its_labels_meet(results_other):
    """ "fish swam by the shore" puts two "shore" labels on top of each other in bank-moves.svg:
    the site's sentence must draw clear, another sentence's run (the session's) still writes
    every figure."""
    assert results_other.sentence == ("fish", "swam", "by", "the", "shore")
    assert {"bank-moves.svg", "bank-moves-dark.svg"} <= set(results_other.figures)


def test_every_figure_of_the_site_is_drawn_clear(results):
    """Every Matplotlib figure passes through svg() and so through the check: the run and the
    Real heads page draw all of theirs, in both schemes, without an OverlapError."""
    assert len(results.figures) >= 20
    files = real_heads_page.site_files()
    assert "generated/real-heads/bank-cosine-dark.svg" in files


def test_hand_written_svg_texts_are_checked_by_their_own_geometry():
    """Two labels 12 px apart at 12 px fit; 4 px apart they overlap (boxes from the font size)."""
    from attention_workshop.experiment.overlaps import check_svg, svg_text_boxes

    head = '<svg xmlns="http://www.w3.org/2000/svg"><g font-size="12">'
    fits = (
        head
        + '<text x="0" y="20">layer 1</text><text x="0" y="32">layer 2</text></g></svg>'
    )
    assert [w for w, _ in svg_text_boxes(fits)] == ["layer 1", "layer 2"]
    assert check_svg(fits) == fits
    clash = (
        head
        + '<text x="0" y="20">layer 1</text><text x="0" y="24">layer 2</text></g></svg>'
    )
    with pytest.raises(OverlapError, match="text 'layer 1' overlaps text 'layer 2'"):
        check_svg(clash)
    # through the Real heads grid: a label too wide for its thumbnail runs into its neighbour's
    import numpy as np

    from attention_workshop.experiment.head_figures import grid_svg

    weights = np.full((1, 2, 2, 2), 0.5)
    grid_svg(weights, [["prev 1.00", "CLS 0.70"]], "two heads", "d")
    with pytest.raises(OverlapError, match="overlaps text"):
        grid_svg(
            weights, [["a label far too wide", "for a thumbnail"]], "two heads", "d"
        )
