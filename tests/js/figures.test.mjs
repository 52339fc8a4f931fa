// docs/assets/minilm/figures.js: the run box's SVG and CSV, from the package's weights of a sentence
// (tests/test_js.py): every number of the CSV reads back as the package's, and the SVG shades each
// cell at the nearest tenth as the build's figures do.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { BROAD, PLACES, SHARE, SCHEMES, classLabel, esc, gridCsv, gridSvg, headClass, headCsv, headSvg, level } from "../../docs/assets/minilm/figures.js";
import { cases } from "./fixtures.mjs";

const p = cases.minilm.passes[0];
const tokens = p.tokens;

describe("the run box's CSV and SVG", () => {
  const T = p.half[0][0].length;
  const toks = tokens;
  test("the grid's CSV holds every weight, exactly", () => {
    const lines = gridCsv(toks, p.half).trimEnd().split("\n");
    assert.equal(lines.length, 1 + p.half.length * p.half[0].length * T);
    for (const line of lines.slice(1)) {
      const [l, n, , ...w] = line.split(",");
      assert.equal(w.length, T);
    }
    const [l, n, , ...w] = lines[1 + (2 * 12 + 5) * T + 3].split(",");
    assert.deepEqual([Number(l), Number(n)], [3, 6]);
    assert.deepEqual(w.map(Number), p.half[2][5][3]);
  });
  test("the head's CSV quotes a token with a comma", () => {
    assert.match(headCsv([",", "a"], [[1, 0], [0.5, 0.5]]), /^query,",",a\n",",1,0\na,0.5,0.5\n$/);
  });
  test("the grid's SVG: one shaded cell for each weight of a tenth or more, in either scheme", () => {
    for (const scheme of ["light", "dark"]) {
      const svg = gridSvg("a <b> & \"c\"", p.half, scheme);
      const shaded = p.half.flat(3).filter((w) => level(w) > 0).length;
      assert.equal((svg.match(/fill-opacity=/g) ?? []).length, shaded);
      assert.ok(!svg.includes("<b>") && svg.includes(esc("<b>")));
    }
    assert.notEqual(gridSvg("x", p.half, "light"), gridSvg("x", p.half, "dark"));
  });
  test("the grid's description names the shade more weight gets in each scheme", () => {
    // relative luminance (WCAG) of a #rrggbb colour: more weight is more ink over the paper
    const lum = (hex) => {
      const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
        .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
      return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    };
    for (const scheme of ["light", "dark"]) {
      const { ink, paper } = SCHEMES[scheme];
      const word = lum(ink) < lum(paper) ? "darker" : "lighter";
      const desc = gridSvg("a b", p.half, scheme).match(/<desc[^>]*>([^<]*)<\/desc>/)[1];
      assert.match(desc, new RegExp(`\\b${word} for more weight`), scheme);
      assert.doesNotMatch(desc, word === "darker" ? /\blighter\b/ : /\bdarker\b/, scheme);
    }
  });
  test("each head's class and number are the package's, and the grid prints them under it", () => {
    assert.deepEqual([SHARE, BROAD, PLACES], [cases.minilm.share, cases.minilm.broad, cases.minilm.places]);
    for (const q of cases.minilm.passes) {
      const labels = q.half.map((layer) => layer.map((w) => classLabel(headClass(w))));
      assert.deepEqual(labels, q.labels, q.text);
      const svg = gridSvg(q.text, q.half, "light");
      for (const [l, layer] of q.labels.entries()) {
        for (const [n, [name, number]] of layer.entries()) {
          assert.ok(svg.includes(`<title>layer ${l + 1}, head ${n + 1}: ${name}, ${number}</title>`), `${l} ${n}`);
        }
      }
      assert.ok(new Set(q.labels.flat().map(([name]) => name)).size > 1, "the passes have more than one class");
    }
  });
  test("the head's SVG prints every weight", () => {
    const svg = headSvg(toks, p.half[0][2], "layer 1, head 3", "light");
    assert.equal((svg.match(/text-anchor="middle">/g) ?? []).length, T * T);
  });
});
