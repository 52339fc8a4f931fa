"""One sentence's heads, from the command line: ``python -m attention_workshop.trained --sentence "..."
--out DIR`` (also installed as ``attention-workshop-heads``).

It runs the sentence through a trained model (the package's own forward pass, offline):
all-MiniLM-L6-v2 by default, or SmolLM2-135M-Instruct with ``--model smollm``. It classifies
every head as the "Real heads" page does (for the causal model, with the classes that fit one:
:mod:`.smollm_heads`) and writes three files: ``heads.md`` (the table of classes, as on the
page; for SmolLM2 also the next token it predicts), ``heads.csv`` (every head's class, score and
six measures) and ``grid.svg`` (every head at once, in the light scheme's colours on a
transparent background, like the SVGs the site offers for download). Bad input or a missing
model gives one line on stderr and a non-zero exit, and nothing is written; the sentence is
checked before the model loads.
"""

from __future__ import annotations

import argparse
import html
import sys
import unicodedata
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..causal import MissingModelError as MissingSmolLM
from ..causal import SmolLM, load_smollm
from ..chapters import real_heads as rh
from ..chapters.real_heads import Heads, Sentence
from ..trained import MiniLM, MissingModelError, load_minilm
from . import atomic, fmt, smollm_heads
from .head_figures import SHORT
from .plotting import LIGHT
from .real_heads_md import class_table
from .real_heads_page import classes_csv, grid_figure

__all__ = ["FILES", "MODELS", "check_sentence", "files_for", "main"]

#: The files the command writes, in the order it lists them.
FILES = ("heads.md", "heads.csv", "grid.svg")
#: The models ``--model`` takes: the most words a sentence may have for each (every word is at
#: least one token; MiniLM adds [CLS] and [SEP], SmolLM2 adds nothing).
MODELS: dict[str, int] = {"minilm": MiniLM.MAX_TOKENS - 2, "smollm": SmolLM.MAX_TOKENS}
#: Control characters a sentence may hold: the whitespace ones (XML and Markdown take them).
_WHITESPACE = "\t\n\r"


def check_sentence(text: str, model: str = "minilm") -> str:
    """``text`` if the command can read it with ``model`` (a key of :data:`MODELS`), checked
    before the model loads.

    Raises:
        ValueError: the sentence is not UTF-8 text (an argument the shell could not decode),
            holds a control character (ESC, BEL...) that no SVG or Markdown file can carry, has
            no visible character, or has more words than the model takes tokens.
    """
    bad = next((c for c in text if 0xD800 <= ord(c) <= 0xDFFF), None)
    if bad is not None:
        raise ValueError(
            "the sentence is not UTF-8 text (a byte the terminal could not decode): "
            "type it again, or set your terminal to UTF-8"
        )
    bad = next(
        (
            c
            for c in text
            if (unicodedata.category(c) == "Cc" and c not in _WHITESPACE)
            or ord(c) in (0xFFFE, 0xFFFF)
        ),
        None,
    )
    if bad is not None:
        raise ValueError(
            f"the sentence holds the control character U+{ord(bad):04X}, which no file "
            "can show: leave it out"
        )
    if not any(c.isprintable() and not c.isspace() for c in text):
        raise ValueError(
            'give a sentence with at least one word: --sentence "The bank of the river."'
        )
    words = len(text.split())
    limit = MODELS[model]
    if words > limit:
        raise ValueError(
            f"the sentence has {words} words; the model reads at most {limit}: shorten it"
        )
    return text


def _text(text: str) -> str:
    """The reader's words as Markdown shows them as typed: HTML escaped, never run."""
    return html.escape(text, quote=False)


def _markdown(h: Heads) -> str:
    """heads.md: the sentence, its tokens, each head's class and score, the count per class."""
    counts = "\n".join(
        f"| {rh.LABELS[c]} | {h.count(c)} |" for c in rh.CLASSES if h.count(c)
    )
    shorts = "; ".join(f"{s} = {rh.LABELS[c]}" for c, s in SHORT.items())
    return (
        f"# The heads of all-MiniLM-L6-v2 on one sentence\n\n"
        f"Sentence: {_text(h.sentence.text)}\n\n"
        f"Tokens ({len(h.tokens)}): {_text(' '.join(h.tokens))}\n\n"
        f"{class_table(h)}\n"
        f"Classes: {shorts}. A place's class needs a share of at least "
        f"{fmt.num(rh.SHARE, 2)}; broad needs a normalised entropy of at least "
        f"{fmt.num(rh.BROAD, 2)}. Under each class, the number that put the head there: "
        "share, the share of attention its place gets; entropy, a broad head's normalised "
        "entropy; max, an other head's largest share of any place.\n\n"
        f"| class | heads |\n|:--|--:|\n{counts}\n"
    )


def files_for(h: Heads) -> dict[str, str]:
    """The command's files for one measured sentence, ``{name: text}``."""
    return {
        "heads.md": _markdown(h),
        "heads.csv": classes_csv(h),
        "grid.svg": grid_figure(h, LIGHT),
    }


def _files(model: str, sentence: str) -> dict[str, str]:
    """The files for a checked sentence, by ``model``: the model loaded, run and measured."""
    if model == "smollm":
        return smollm_heads.files_for(smollm_heads.run(load_smollm(), sentence))
    out = load_minilm(np.float64)(sentence)
    return files_for(rh.measure(Sentence("yours", sentence, "your sentence"), out))


def _parser() -> argparse.ArgumentParser:
    invoked = Path(sys.argv[0]).name
    parser = argparse.ArgumentParser(
        prog="python -m attention_workshop.trained"
        if invoked in ("trained", "__main__.py")
        else invoked,
        description="Classify every head of a trained model on one sentence, offline, and "
        "write the table of classes (heads.md, heads.csv) and the grid of heads (grid.svg).",
        epilog="With --model smollm, heads.md also gives the five likeliest next tokens, and "
        "the classes are those that fit a causal head: previous token, self, first token "
        "(the attention sink), duplicate token and induction (when a token repeats), broad "
        "and other. The sentence is checked before the model loads.",
    )
    parser.add_argument(
        "--sentence", help='the sentence, e.g. "The bank of the river."'
    )
    parser.add_argument(
        "--model",
        choices=tuple(MODELS),
        default="minilm",
        help="minilm: all-MiniLM-L6-v2, 6 layers of 12 heads, reading both ways (the "
        "default); smollm: SmolLM2-135M-Instruct, a causal language model, 30 layers of 9 "
        f"heads. Each reads at most {SmolLM.MAX_TOKENS} tokens (MiniLM's [CLS] and [SEP] "
        f"included): at most {MODELS['minilm']} words for minilm, {MODELS['smollm']} for smollm",
    )
    parser.add_argument(
        "--out", default="heads", help="folder to write into (default: heads)"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: one sentence in, its heads' classes and grid out."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.sentence is None:
        parser.exit(2, 'error: give a sentence: --sentence "The bank of the river."\n')
    try:
        check_sentence(args.sentence, args.model)
    except ValueError as err:
        parser.exit(2, f"error: {err}\n")
    try:
        atomic.check_out_dir(args.out, FILES)
    except atomic.OutDirError as err:
        parser.exit(2, f"error: --out {args.out}: {err}\n")
    try:
        files = _files(args.model, args.sentence)
    except (MissingModelError, MissingSmolLM, ModuleNotFoundError, ValueError) as err:
        parser.exit(2, f"error: {err}\n")
    try:
        written = atomic.write_all(files, args.out)
    except atomic.OutDirError as err:
        parser.exit(2, f"error: --out {args.out}: {err}\n")
    except OSError as err:
        parser.exit(2, f"error: cannot write into {args.out}: {err.strerror or err}\n")
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
