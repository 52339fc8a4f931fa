// docs/assets/minilm/figures.js: the run box's SVG and CSV, from the package's weights of a sentence
// (tests/test_js.py): every number of the CSV reads back as the package's, and the SVG shades each
// cell at the nearest tenth as the build's figures do.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { BROAD, PLACES, SHARE, SCHEMES, classLabel, classesCsv, esc, gridCsv, gridSvg, headClass, headCsv, headSvg, level } from "../../docs/assets/minilm/figures.js";
import { cases } from "./fixtures.mjs";

const p = cases.minilm.passes[0];
const tokens = p.tokens;

describe("the run box's CSV and SVG", () => {
  const T = p.half[0][0].length;
  const toks = tokens;
  test("the weights' CSV holds every weight to six decimals, as the build's CSVs", () => {
    const lines = gridCsv(toks, p.half).trimEnd().split("\n");
    assert.equal(lines.length, 1 + p.half.length * p.half[0].length * T);
    for (const line of lines.slice(1)) {
      const [, , , ...w] = line.split(",");
      assert.equal(w.length, T);
      for (const x of w) assert.match(x, /^\d\.\d{6}$/);
    }
    const [l, n, , ...w] = lines[1 + (2 * 12 + 5) * T + 3].split(",");
    assert.deepEqual([Number(l), Number(n)], [3, 6]);
    w.forEach((x, j) => assert.ok(Math.abs(Number(x) - p.half[2][5][3][j]) <= 5e-7, `${x} ${j}`));
  });
  // Six decimals of two float64 sums of the same terms: equal text but where one lies a last bit
  // either side of a rounding edge, so numbers are compared to a millionth and words exactly.
  const sameCsv = (got, want, label) => {
    const rows = (t) => t.trimEnd().split("\n").map((r) => r.split(","));
    const [g, e] = [rows(got), rows(want)];
    assert.equal(g.length, e.length, label);
    assert.deepEqual(g[0], e[0], label);
    g.forEach((row, i) => row.forEach((x, j) => {
      const y = e[i][j];
      if (/^-?\d+\.\d{6}$/.test(y)) assert.ok(Math.abs(Number(x) - Number(y)) <= 1.000001e-6, `${label} row ${i} col ${j}: ${x} vs ${y}`);
      else assert.equal(x, y, `${label} row ${i} col ${j}`);
    }));
  };
  test("the grid's CSV is the page's grid CSV (classes_csv) of the same heads", () => {
    for (const q of cases.minilm.passes) sameCsv(classesCsv(q.half), q.classes_csv, q.text);
  });
  test("the head's CSV is the build's head CSV of the same weights", () => {
    for (const q of cases.minilm.passes) sameCsv(headCsv(q.tokens, q.half[0][2]), q.head_csv, q.text);
  });
  test("the head's CSV quotes a token with a comma", () => {
    assert.match(headCsv([",", "a"], [[1, 0], [0.5, 0.5]]), /^query,",",a\n",",1\.000000,0\.000000\na,0\.500000,0\.500000\n$/);
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
