// docs/assets/inside/model.js against the package: the recompute of the toy block (to 1e-9, on
// the page's input and on inputs the package worked out in tests/test_js.py), and the explorer's rules.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  FILL, blend, checkWords, clampStep, compute, fmt, growthText, hex, inputs, isWord, labels, outputColours, plural, rgb,
  stepFromHash, tokenColour, tokenColours, withTokens, zeros,
} from "../../docs/assets/inside/model.js";
import { cases, insideData, maxGap } from "./fixtures.mjs";

const toy = insideData.toy;
const TOL = 1e-9;

describe("compute: the toy attention block", () => {
  test("the page's own input gives the package's reference output and weights", () => {
    const r = compute(toy, toy.words);
    assert.ok(maxGap(r.y, toy.reference.y) <= TOL, `y differs by ${maxGap(r.y, toy.reference.y)}`);
    assert.ok(maxGap(r.weights, toy.reference.weights) <= TOL, `weights differ by ${maxGap(r.weights, toy.reference.weights)}`);
  });

  for (const c of cases.inside) {
    test(`${c.words.join(" ")}${c.nudge ? ", nudged" : ""}: every intermediate equals inside.compute`, () => {
      const r = compute(toy, c.words, c.nudge ?? c.words.map(() => zeros(toy.n_embd)));
      for (const key of ["x", "qkv", "q", "k", "v", "scores", "scaled", "masked", "weights", "heads", "concat", "y"]) {
        const gap = maxGap(r[key], c[key], key);
        assert.ok(gap <= TOL, `${c.words.join(" ")}: ${key} differs from the package by ${gap}`);
      }
    });
  }

  test("every row of weights sums to 1 and gives the future nothing", () => {
    const r = compute(toy, FILL);
    r.weights.forEach((g, h) => g.forEach((row, i) => {
      assert.ok(Math.abs(row.reduce((s, w) => s + w, 0) - 1) < 1e-12, `head ${h + 1}, row ${i + 1}`);
      row.forEach((w, j) => { if (j > i) assert.equal(w, 0, `head ${h + 1}: row ${i + 1} sees token ${j + 1}`); });
    }));
  });

  test("a nudge of the wrong shape or not finite is refused", () => {
    assert.throws(() => inputs(toy, ["the"], [[0, 0]]), new RegExp(`1 rows of ${toy.n_embd} finite numbers`));
    assert.throws(() => inputs(toy, ["the", "boat"], [zeros(toy.n_embd)]), RangeError);
    assert.throws(() => inputs(toy, ["the"], [[NaN, ...zeros(toy.n_embd - 1)]]), RangeError);
  });
});

describe("words", () => {
  test("every word of the vocabulary is a word, and the words 'one token more' adds are too", () => {
    for (const w of Object.keys(toy.vocab)) assert.ok(isWord(toy.vocab, w), w);
    for (const w of FILL) assert.ok(isWord(toy.vocab, w), `FILL word ${w} is not in the vocabulary`);
  });

  test("names every object has are not words: constructor, __proto__, toString", () => {
    const known = new RegExp(`; the toy vocabulary knows: ${Object.keys(toy.vocab).join(", ")}$`);
    for (const w of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "", 1, null, undefined]) {
      assert.equal(isWord(toy.vocab, w), false, String(w));
      assert.throws(() => checkWords(toy, ["the", w]), known, String(w));
      assert.throws(() => compute(toy, [w]), /unknown word/, String(w));
    }
  });

  test("1 to max_tokens words", () => {
    assert.throws(() => checkWords(toy, []), new RegExp(`1 to ${toy.max_tokens} tokens, got 0 words`));
    assert.throws(() => checkWords(toy, new Array(toy.max_tokens + 1).fill("the")), RangeError);
    assert.doesNotThrow(() => checkWords(toy, new Array(toy.max_tokens).fill("the")));
  });

  test("withTokens grows with FILL, shrinks from the end, clamps, and leaves its input alone", () => {
    const words = toy.words.slice(), nudge = words.map(() => zeros(toy.n_embd));
    nudge[0][0] = 0.5;
    const more = withTokens(toy, words, nudge, 99);
    assert.equal(more.words.length, toy.max_tokens);
    assert.deepEqual(more.words.slice(0, words.length), words);
    assert.deepEqual(more.words.slice(words.length), FILL.slice(words.length, toy.max_tokens));
    assert.equal(more.nudge[0][0], 0.5);
    more.nudge[0][0] = 9;
    assert.equal(nudge[0][0], 0.5, "the caller's nudge rows are copied");
    const one = withTokens(toy, words, nudge, 0);
    assert.deepEqual(one.words, [words[0]]);
    assert.equal(one.nudge.length, 1);
    assert.equal(words.length, toy.words.length);
  });
});

describe("steps and the address", () => {
  const n = insideData.steps.length;
  test("any step asked for becomes one of the data's steps", () => {
    const cases = [[1, 1], ["3", 3], ["3.6", 4], [n, n], ["99", n], ["Infinity", n], ["0", 1], ["-2", 1], ["abc", 1], ["", 1], [null, 1]];
    for (const [asked, want] of cases) assert.equal(clampStep(asked, n), want, `step ${asked}`);
  });
  test("only #step=N names a step", () => {
    assert.equal(stepFromHash("#step=5"), "5");
    assert.equal(stepFromHash("#step=abc"), "abc");
    assert.equal(stepFromHash("#step="), "");
    for (const h of ["", "#", "#scores", "#step=5&x=1", "#steps=5"]) assert.equal(stepFromHash(h), null, h);
  });
});

describe("how numbers and counts read", () => {
  test("fmt: a real minus sign, no −0.00, −∞ for a masked score", () => {
    assert.equal(fmt(-1.5), "−1.50");
    assert.equal(fmt(-0.001), "0.00");
    assert.equal(fmt(0.12345, 3), "0.123");
    assert.equal(fmt(-Infinity), "−∞");
  });
  test("plural and labels", () => {
    assert.equal(plural(1, "token"), "1 token");
    assert.equal(plural(2, "cell"), "2 cells");
    assert.equal(plural(insideData.gpt2.n_ctx, "token"), `${insideData.gpt2.n_ctx.toString().replace(/\B(?=(\d{3})+$)/g, ",")} tokens`);
    assert.deepEqual(labels(["the", "boat"]), ["1 the", "2 boat"]);
  });
  test("growthText: the score grid is T × T, and doubling T makes it 4 times as big", () => {
    const G = insideData.growth;
    assert.deepEqual(growthText(G, 1), ["1 token: 1 score cell per head.", "Double to 2 tokens: 4 cells, ×4."]);
    const T = G.length / 2;
    assert.deepEqual(growthText(G, T), [`${T} tokens: ${T * T} score cells per head.`, `Double to ${2 * T} tokens: ${4 * T * T} cells, ×4.`]);
    assert.deepEqual(growthText(G, 2 * T), [`${2 * T} tokens: ${4 * T * T} score cells per head.`,
      `Half as many (${T} tokens): ${T * T} cells, so doubling gave ×4.`]);
    assert.equal(growthText(G, G.length - 1).length, 1, "an odd T past the half has no comparison");
  });
});

describe("token colours", () => {
  const palette = toy.token_colours;
  test("the colours come from the data, one per token, all different up to max_tokens", () => {
    assert.ok(Array.isArray(palette) && palette.length >= toy.max_tokens);
    const T = toy.max_tokens;
    assert.deepEqual(tokenColours(palette, T), palette.slice(0, T));
    assert.equal(new Set(tokenColours(palette, T)).size, T);
    assert.equal(tokenColour(palette, palette.length), palette[0], "more tokens than colours: they repeat");
  });

  test("rgb and hex: #rrggbb both ways; anything else is refused", () => {
    assert.deepEqual(rgb("#0a80ff"), [10, 128, 255]);
    assert.equal(hex([10, 128, 255]), "#0a80ff");
    assert.equal(hex([-3, 127.6, 300]), "#0080ff", "rounded and kept in 0..255");
    for (const bad of ["red", "#fff", "#12345g", "", null]) assert.throws(() => rgb(bad), /#rrggbb/, String(bad));
  });

  test("blend: a weight of 1 gives that colour; half black, half white is mid grey", () => {
    assert.equal(blend(["#123456", "#abcdef"], [1, 0]), "#123456");
    assert.equal(blend(["#123456", "#abcdef"], [0, 1]), "#abcdef");
    assert.equal(blend(["#000000", "#ffffff"], [0.5, 0.5]), "#808080");
    assert.equal(blend(["#ff0000", "#0000ff"], [3, 1]), "#bf0040", "weights are shares of their total");
    assert.throws(() => blend(["#000000"], [0.5, 0.5]), RangeError);
    assert.throws(() => blend(["#000000", "#ffffff"], [0, 0]), /add up to 0/);
    assert.throws(() => blend(["#000000", "#ffffff"], [-1, 2]), RangeError);
  });

  test("the first token can only draw from itself: its output has its own colour, in every head", () => {
    const r = compute(toy, toy.words);
    for (const head of [...Array(toy.n_head).keys(), null]) {
      assert.equal(outputColours(palette, r.weights, head)[0], palette[0], `head ${head}`);
    }
  });

  for (const c of cases.inside) {
    test(`${c.words.join(" ")}: each output row's colour is the package's weighted average`, () => {
      const r = compute(toy, c.words, c.nudge ?? c.words.map(() => zeros(toy.n_embd)));
      for (const [name, want] of Object.entries(c.colours)) {
        const got = outputColours(palette, r.weights, name === "both" ? null : Number(name));
        got.forEach((colour, i) => rgb(colour).forEach((v, k) => {
          assert.ok(Math.abs(v - want[i][k]) <= 0.5 + 1e-9, `${name}, row ${i + 1}: ${colour} vs ${want[i]}`);
        }));
      }
    });
  }
});
