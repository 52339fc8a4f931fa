"""Where a drawn Matplotlib figure's labels run into each other, into its data or into its legend.

:func:`overlaps` reads the figure as Matplotlib laid it out (every text's extent from the
renderer, every data mark's outline in pixels) and lists each clash: two texts whose boxes meet,
a text that crosses a line, an arrow, a marker, the edge of a bar or of a heatmap's cell, and a
legend that covers a text or a mark. A text drawn wholly inside one bar or one cell labels it and
is not a clash. :func:`attention_workshop.experiment.plotting.svg` calls :func:`check` on every figure
before it writes it, so a figure with a clash fails the build (:class:`OverlapError`, named by
:func:`attention_workshop.experiment.figures.themed`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

__all__ = [
    "OverlapError",
    "overlaps",
    "check",
    "svg_text_boxes",
    "svg_overlaps",
    "check_svg",
]

#: Pixels (at the figure's dpi) that two boxes may share before they count as overlapping:
#: Matplotlib's text boxes include the font's full ascent and descent, which no glyph fills.
SLACK = 1.0


class OverlapError(ValueError):
    """A figure whose labels run into each other, its data or its legend; ``problems`` lists each,
    ``svg`` is the figure drawn all the same (where it was drawn)."""

    def __init__(self, problems: list[str], svg: str | None = None) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems
        self.svg = svg


def _shrunk(bbox: Any, by: float = SLACK) -> Any:
    from matplotlib.transforms import Bbox

    return Bbox.from_extents(bbox.x0 + by, bbox.y0 + by, bbox.x1 - by, bbox.y1 - by)


def _name(artist: Any) -> str:
    from matplotlib.legend import Legend
    from matplotlib.lines import Line2D
    from matplotlib.text import Text

    if isinstance(artist, Text):
        return "text " + repr(" ".join(artist.get_text().split()))
    if isinstance(artist, Legend):
        return "the legend"
    label = artist.get_label()
    named = f" {label!r}" if label and not label.startswith("_") else ""
    if isinstance(artist, Line2D):
        return f"line{named}"
    kind = type(artist).__name__.replace("FancyArrowPatch", "arrow").lower()
    return f"{kind}{named}"


def _hidden_tick_labels(fig: Any) -> set[int]:
    """The labels of ticks outside their axis's view: Matplotlib keeps them but never draws them."""
    out = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            for tick in [*axis.get_major_ticks(), *axis.get_minor_ticks()]:
                loc = tick.get_loc()
                if loc is None or not lo - 1e-9 * (hi - lo) <= loc <= hi + 1e-9 * (
                    hi - lo
                ):
                    out |= {id(tick.label1), id(tick.label2)}
    return out


def _texts(fig: Any, renderer: Any) -> list[tuple[Any, Any]]:
    """Every visible, non-empty text outside a legend, with its box in pixels."""
    from matplotlib.text import Text

    in_legend = {
        id(t)
        for ax in fig.axes
        if ax.get_legend() is not None
        for t in [*ax.get_legend().get_texts(), ax.get_legend().get_title()]
    }
    out = []
    skip = in_legend | _hidden_tick_labels(fig)
    for t in fig.findobj(Text):
        if id(t) in skip or not t.get_visible() or not t.get_text().strip():
            continue
        if t.axes is not None and not t.axes.get_visible():
            continue
        # the words' own box: an Annotation's extent would take in its pointer too
        box = Text.get_window_extent(t, renderer)
        if box.width > 0 and box.height > 0:
            out.append((t, box))
    return out


def _outline(path: Any) -> list[Any]:
    """A path as plain polylines (curves flattened, no closing codes): what
    ``intersects_bbox`` can test exactly."""
    from matplotlib.path import Path

    return [Path(poly) for poly in path.to_polygons(closed_only=False) if len(poly)]


def _meets(path: Any, box: Any) -> bool:
    """Whether a mark's outline crosses or touches a box."""
    return any(part.intersects_bbox(box, filled=False) for part in _outline(path))


def _marks(fig: Any) -> Iterator[tuple[Any, Any, bool]]:
    """Every data mark of the figure: ``(artist, outline path in pixels, filled)``."""
    from matplotlib.text import Annotation

    for ax in fig.axes:
        for line in ax.lines:
            if line.get_visible() and line.get_linestyle() not in ("None", "", " "):
                yield line, line.get_transform().transform_path(line.get_path()), False
        for patch in ax.patches:
            if patch.get_visible():
                path = patch.get_transform().transform_path(patch.get_path())
                yield patch, path, bool(patch.get_fill())
        for text in ax.texts:
            arrow = getattr(text, "arrow_patch", None)
            if isinstance(text, Annotation) and arrow is not None:
                yield (
                    arrow,
                    arrow.get_transform().transform_path(arrow.get_path()),
                    False,
                )


def _marker_boxes(fig: Any) -> Iterator[tuple[Any, Any]]:
    """Each marker of each line, as a square of its size in pixels."""
    from matplotlib.transforms import Bbox

    for ax in fig.axes:
        for line in ax.lines:
            if not line.get_visible() or line.get_marker() in (None, "None", "", " "):
                continue
            half = line.get_markersize() * fig.dpi / 72 / 2
            for x, y in line.get_transform().transform(line.get_xydata()):
                yield line, Bbox.from_extents(x - half, y - half, x + half, y + half)


def _cell_edges(fig: Any) -> Iterator[tuple[Any, np.ndarray, np.ndarray, Any]]:
    """Each image's cell boundaries in pixels: ``(image, xs, ys, its box)``."""
    for ax in fig.axes:
        for image in ax.images:
            rows, cols = image.get_array().shape[:2]
            x0, x1, y0, y1 = image.get_extent()
            corners = ax.transData.transform([(x0, y0), (x1, y1)])
            xs = np.linspace(corners[0, 0], corners[1, 0], cols + 1)
            ys = np.linspace(corners[0, 1], corners[1, 1], rows + 1)
            yield image, np.sort(xs), np.sort(ys), image.get_window_extent()


def _crosses_cells(box: Any, xs: np.ndarray, ys: np.ndarray) -> bool:
    """Whether a box inside an image spans more than one of its cells."""
    inner = _shrunk(box)
    return bool(
        np.any((xs > inner.x0) & (xs < inner.x1))
        or np.any((ys > inner.y0) & (ys < inner.y1))
    )


def _points(boxes: list[Any]) -> np.ndarray:
    """``(n, 4)``: each box's ``x0, y0, x1, y1`` as it holds them (an inverted box stays so)."""
    return np.array([(b.x0, b.y0, b.x1, b.y1) for b in boxes], float).reshape(-1, 4)


def _pairs_overlapping(points: np.ndarray) -> list[tuple[int, int]]:
    """Every pair ``i < j`` of boxes that overlap as Matplotlib's ``Bbox.overlaps`` says (edges
    touching count; an inverted box is taken the right way round), in the order of
    ``itertools.combinations``; in NumPy, 512 rows at a time (a long sentence's figure has
    thousands of texts)."""
    lo, hi = (
        np.minimum(points[:, :2], points[:, 2:]),
        np.maximum(points[:, :2], points[:, 2:]),
    )
    out: list[tuple[int, int]] = []
    for start in range(0, len(points), 512):
        a, b = lo[start : start + 512, None], hi[start : start + 512, None]
        i, j = np.nonzero(np.all((a <= hi[None]) & (lo[None] <= b), axis=-1))
        out += [(x, y) for x, y in zip((i + start).tolist(), j.tolist()) if y > x]
    return out


def _near(marks: np.ndarray, texts: np.ndarray) -> Iterator[np.ndarray]:
    """For each text's box in turn, whether each mark's extent meets or touches it (when the two
    are apart, no outline inside the mark reaches the text), worked out for 512 texts at a time."""
    m = marks[None]
    for start in range(0, len(texts), 512):
        t = texts[start : start + 512, None]
        yield from ~(
            (m[..., 2] < t[..., 0])
            | (t[..., 2] < m[..., 0])
            | (m[..., 3] < t[..., 1])
            | (t[..., 3] < m[..., 1])
        )


def _text_mark_problems(texts: list[tuple[Any, Any]], fig: Any) -> list[str]:
    out = []
    # each mark's outline and extent once, not once per text
    marks = [
        (m, _outline(path), filled, path.get_extents())
        for m, path, filled in _marks(fig)
    ]
    markers = list(_marker_boxes(fig))
    cells = list(_cell_edges(fig))
    inners = [_shrunk(box) for _, box in texts]
    # which marks each text's box meets at all, 512 texts at a time (then each one checked)
    near = _near(_points([ext for *_, ext in marks]), _points(inners))
    for (t, box), inner, meets in zip(texts, inners, near):
        own = getattr(t, "arrow_patch", None)
        for k in np.flatnonzero(meets):
            mark, outline, filled, ext = marks[k]
            # an annotation's pointer starts at its own text; a mark apart from it cannot clash
            if mark is own:
                continue
            # a text wholly inside a filled mark labels it; crossing its edge, or holding it, is a clash
            hits = any(
                part.intersects_bbox(inner, filled=False) for part in outline
            ) or (
                filled
                and inner.x0 <= ext.x0
                and ext.x1 <= inner.x1
                and inner.y0 <= ext.y0
                and ext.y1 <= inner.y1
                and ext.width > 0
            )
            if hits:
                out.append(f"{_name(t)} overlaps {_name(mark)}")
        for line, marker in markers:
            if inner.overlaps(marker):
                out.append(f"{_name(t)} overlaps a marker of {_name(line)}")
                break
        for _image, xs, ys, ibox in cells:
            if inner.overlaps(ibox) and _crosses_cells(box, xs, ys):
                out.append(f"{_name(t)} runs across the cells of the image")
    return out


def _legend_problems(
    texts: list[tuple[Any, Any]], fig: Any, renderer: Any
) -> list[str]:
    out = []
    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is None or not legend.get_visible():
            continue
        lbox = _shrunk(legend.get_window_extent(renderer))
        out += [
            f"the legend covers {_name(t)}" for t, box in texts if lbox.overlaps(box)
        ]
        for mark, path, _ in _marks(fig):
            if _meets(path, lbox):
                out.append(f"the legend covers {_name(mark)}")
        covered = {id(line): line for line, m in _marker_boxes(fig) if lbox.overlaps(m)}
        out += [
            f"the legend covers a marker of {_name(line)}" for line in covered.values()
        ]
    return out


def overlaps(fig: Any) -> list[str]:
    """Every clash in a Matplotlib figure as drawn: two texts, a text and a data mark, the legend
    and a text or a mark. Each entry names the two artists (texts by their words). The figure
    is laid out as a draw lays it out, without painting a pixel (Matplotlib's public
    ``draw_without_rendering``: the same boxes, 30% less time than a full draw)."""
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    texts = _texts(fig, renderer)
    boxes = _points([_shrunk(box) for _, box in texts])
    problems = [
        f"{_name(texts[a][0])} overlaps {_name(texts[b][0])}"
        for a, b in _pairs_overlapping(boxes)
    ]
    problems += _text_mark_problems(texts, fig)
    problems += _legend_problems(texts, fig, renderer)
    return list(dict.fromkeys(problems))


def check(fig: Any) -> None:
    """Raise :class:`OverlapError` when :func:`overlaps` finds anything in ``fig``."""
    problems = overlaps(fig)
    if problems:
        raise OverlapError(problems)


#: A hand-written SVG's text has no renderer to measure it: its box is estimated from its font size,
#: this many ems per character (wider than the system sans-serif fonts' average) and 1 em tall.
EM_PER_CHAR = 0.6


def svg_text_boxes(svg: str) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Each unrotated ``<text>`` of a hand-written SVG (:mod:`.head_figures`) with its estimated box
    ``(x0, y0, x1, y1)`` in the SVG's units: font size and anchor inherited from its groups.
    Rotated or transformed texts are left out (their extent depends on the font)."""
    import xml.etree.ElementTree as ET

    ns = "{http://www.w3.org/2000/svg}"
    out = []

    def walk(el: ET.Element, size: float, anchor: str) -> None:
        size = float(el.get("font-size", size))
        anchor = el.get("text-anchor", anchor)
        if el.tag == f"{ns}text" and "transform" not in el.attrib:
            words = "".join(el.itertext()).strip()
            x, y = float(el.get("x", 0)), float(el.get("y", 0))
            w = EM_PER_CHAR * size * len(words)
            x0 = {"middle": x - w / 2, "end": x - w}.get(anchor, x)
            out.append((words, (x0, y - 0.8 * size, x0 + w, y + 0.2 * size)))
        if el.tag != f"{ns}text" and not el.get("transform"):
            for child in el:
                walk(child, size, anchor)

    walk(ET.fromstring(svg), 16.0, "start")
    return out


def svg_overlaps(svg: str) -> list[str]:
    """Pairs of a hand-written SVG's texts whose estimated boxes (:func:`svg_text_boxes`) overlap."""
    boxes = svg_text_boxes(svg)
    b = np.array([box for _, box in boxes], dtype=np.float64).reshape(-1, 4)
    pairs: list[tuple[int, int]] = []  # in the order of itertools.combinations
    for start in range(0, len(b), 512):  # in NumPy, 512 texts at a time against all
        a = b[start : start + 512, None]
        lo, hi = np.maximum(a[..., :2], b[:, :2]), np.minimum(a[..., 2:], b[:, 2:])
        i, j = np.nonzero(np.triu(np.all(hi - lo > SLACK, axis=-1), 1 + start))
        pairs += zip((i + start).tolist(), j.tolist())
    return [f"text {boxes[x][0]!r} overlaps text {boxes[y][0]!r}" for x, y in pairs]


def check_svg(svg: str) -> str:
    """``svg`` itself, or :class:`OverlapError` when :func:`svg_overlaps` finds two texts on each other."""
    problems = svg_overlaps(svg)
    if problems:
        raise OverlapError(problems)
    return svg
