"""Sentences made to break a WordPiece tokenizer, for the browser's (docs/assets/minilm/minilm.js).

Each is tokenized by `tokenizers` (the reference) and by minilm.js (tests/js/minilm.test.mjs): accents
and their stripping, capitals, CJK, emoji, punctuation runs, numbers, words longer than the
WordPiece limit, unknown characters, repeated spaces, every kind of whitespace, control characters,
the special tokens typed, and characters of the Unicode versions after 9.0 (where JavaScript's
``\\p{...}`` and the Rust tables of `tokenizers` may differ).
"""

from __future__ import annotations

#: Every character Unicode calls White_Space, and the format characters that look like one.
WHITESPACE = (
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\u180e\u200b\u2060\ufeff"
)

CORPUS: tuple[str, ...] = (
    "Attention is all you need.",
    "Café naïve résumé Ångström coöperate façade Œuvre Ærø",
    "HELLO World MiXeD cAsE iPhone",
    "我爱自然语言处理。日本語のテキスト、カタカナ。한국어 텍스트",
    "\U00020000\U0002a700\U0002b740\U0002b820\U0002b920\U0002ceb0\U00030000\U00031350\uf900\U0002f800",
    "I ❤️ 🍕 and 👩‍👩‍👧 🇫🇷 😀😀😀 ☃ ✌🏽",
    "Wait...!!! ?!? (((a))) --- ''\"\" «quotes» ¿qué? ¡sí! a—b–c … ‽ ※ 〽 ・",
    "3.14159 1,000,000 2nd 10^6 $5 €20 £3 ½ ² ٣٤ १२ 1e-12 #1 @home 50% a+b=c <x> |y| ~z `q`",
    "a" * 100,
    "b" * 101,
    "supercalifragilisticexpialidocious antidisestablishmentarianism pneumonoultramicroscopic",
    "unknown: \ue000 \u0378 \U000e0001 \U0010fffd ⍼ \U0001f9ff ᚠᛇᚻ ꙮ",
    "a    b     c",
    "x" + WHITESPACE.replace("", "y")[1:-1] + "z",
    "nul\x00one\x01del\x7fzwj\u200dreplacement\ufffdbidi\u202eend\u2066",
    "[CLS] hello [MASK] world [mask] [SEP] [UNK][PAD]",
    "İstanbul ıi Straße ΟΔΟΣ Σίσυφος ǅemal ﬁne ﬀ ℌ Ⅻ ⓐ",
    "e\u0301 n\u0303 a\u0308\u0301 combining \u0301 alone",
    "\u2e5d \U00011f43 \U0001e4ec \u0891 \U0001f6dc \u0cf3 \U00011f00 \U0001e030",
    "don't can't rock'n'roll e-mail U.S.A. C++ x86-64 http://example.org/a?b=c#d",
    "tab\tnew\nline\r\nreturn",
)
