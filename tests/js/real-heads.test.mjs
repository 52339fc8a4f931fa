// docs/assets/real-heads/model.js against the package: every head's weights as the page reads
// them (the JSON's thousandths against the package's float64 weights), its class, label and
// counts as the build states them (tests/test_js.py), and the grid's keyboard rules.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  LEVELS, cellText, checkSentence, classCounts, fixed, headClass, headLabel, headName, headWeights, level, move,
  numberText, shortLabel, topLooks,
} from "../../docs/assets/real-heads/model.js";
import { cases, maxGap, siteFile } from "./fixtures.mjs";

const index = siteFile(cases.real_heads.index);
const dir = cases.real_heads.index.replace(/[^/]+$/, "");
const sentence = (key) => siteFile(dir + index.sentences.find((s) => s.key === key).src);

describe("each sentence's JSON, read as the grid reads it", () => {
  for (const want of cases.real_heads.sentences) {
    const data = checkSentence(index, sentence(want.key));
    const { n_layer: L, n_head: H } = index;

    test(`${want.key}: every head's weights within half a thousandth of the package's`, () => {
      for (let l = 0; l < L; l++) {
        for (let n = 0; n < H; n++) {
          const gap = maxGap(headWeights(index, data, l, n), want.weights[l][n]);
          assert.ok(gap <= 0.0005 + 1e-12, `${headName(l, n)}: ${gap}`);
        }
      }
    });
    test(`${want.key}: classes, labels and counts as the build states them`, () => {
      assert.deepEqual(classCounts(index, data), want.counts);
      for (let l = 0; l < L; l++) {
        for (let n = 0; n < H; n++) {
          assert.deepEqual(shortLabel(index, data, l, n), want.short[l][n].split("\n"));
          assert.equal(headName(l, n), want.names[l][n]);
          assert.equal(headClass(index, data, l, n).label, want.labels[l][n]);
          assert.equal(numberText(index, data, l, n), want.numbers[l][n]);
          assert.equal(headLabel(index, data, l, n), `${want.names[l][n]}: ${want.labels[l][n]}, ${want.numbers[l][n]}`);
        }
      }
    });
    test(`${want.key}: where each token looks most, as in the package's weights`, () => {
      const w = headWeights(index, data, 0, 2);
      for (let i = 0; i < w.length; i++) {
        const row = want.weights[0][2][i];
        const best = row.indexOf(Math.max(...row));
        assert.equal(topLooks(w, i, 1)[0].j, best, `row ${i}`);
      }
    });
  }
});

describe("the grid's rules", () => {
  test("a cell prints two decimals without the leading zero, never -0", () => {
    assert.deepEqual([0.677, 0.004, 0.999, 1, 0.5].map(cellText), [".68", ".00", "1.00", "1.00", ".50"]);
    assert.equal(fixed(-0.0001, 2), "0.00");
  });
  test("shades are tenths, clamped", () => {
    assert.deepEqual([0, 0.04, 0.05, 0.31, 1, 1.2, -0.1].map(level), [0, 0, 1, 3, LEVELS, LEVELS, 0]);
  });
  test("arrow keys move one head, stop at the edges; Home, End, Page Up and Page Down jump", () => {
    assert.deepEqual(move(0, 2, "ArrowRight", 6, 12), [0, 3]);
    assert.deepEqual(move(0, 0, "ArrowLeft", 6, 12), [0, 0]);
    assert.deepEqual(move(0, 2, "ArrowUp", 6, 12), [0, 2]);
    assert.deepEqual(move(5, 2, "ArrowDown", 6, 12), [5, 2]);
    assert.deepEqual(move(3, 4, "Home", 6, 12), [3, 0]);
    assert.deepEqual(move(3, 4, "End", 6, 12), [3, 11]);
    assert.deepEqual(move(3, 4, "PageUp", 6, 12), [0, 4]);
    assert.deepEqual(move(3, 4, "PageDown", 6, 12), [5, 4]);
    assert.equal(move(3, 4, "Enter", 6, 12), null);
  });
  test("a sentence's data that does not fit the index is refused, saying what is wrong", () => {
    const good = sentence("river");
    assert.throws(() => checkSentence(index, { ...good, key: "nope" }), /unknown sentence "nope"/);
    assert.throws(() => checkSentence(index, { ...good, tokens: good.tokens.slice(1) }), /15 tokens, the index says 16/);
    assert.throws(() => checkSentence(index, { ...good, weights: good.weights.slice(1) }), /not 6 x 12 x 16 x 16/);
    assert.throws(() => checkSentence(index, { ...good, classes: [] }), /classes are not 6 x 12/);
    assert.throws(() => headClass(index, { ...good, classes: good.classes.map((r) => r.map(() => "odd")) }, 0, 0), /unknown class "odd"/);
  });
});
