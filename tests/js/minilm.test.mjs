// docs/assets/minilm/minilm.js against `tokenizers` and the package (tests/test_js.py writes the
// model file as the build does, the corpus's tokens from `tokenizers`, and the package's attentions
// over the file's float16 weights and over the full float32 weights).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";

import { attentions, erf, loadModel, tokenize, tokenizeWords } from "../../docs/assets/minilm/minilm.js";
import { cases, dataDir, maxGap } from "./fixtures.mjs";

const want = cases.minilm;
const file = readFileSync(join(dataDir, want.file));
const bytes = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength);
const model = loadModel(bytes);

describe("the tokenizer equals tokenizers' on a corpus made to break it", () => {
  for (const c of want.corpus) {
    test(JSON.stringify(c.text).slice(0, 60), () => {
      assert.deepEqual(tokenizeWords(model, c.text), c.tokens);
      assert.deepEqual(tokenize(model, c.text), c.ids);
    });
  }
});

describe("every head's weights equal the package's", () => {
  for (const p of want.passes) {
    const got = attentions(model, tokenize(model, p.text));
    test(`${p.text}: within 1e-5 of the package's pass over the same float16 weights`, () => {
      assert.deepEqual(tokenize(model, p.text), p.ids);
      const gap = maxGap(got, p.half);
      assert.ok(gap <= 1e-5, `largest gap ${gap}`);
    });
    test(`${p.text}: within the page's bound (${want.bound}) of the full float32 model`, () => {
      const gap = maxGap(got, p.full);
      assert.ok(gap <= want.bound, `largest gap ${gap}`);
      assert.ok(gap > 0, "float16 weights changed nothing: is the file float32?");
    });
  }
  test("the checks can fail: a weight nudged by 1e-4 is seen", () => {
    const p = want.passes[0];
    const got = attentions(model, tokenize(model, p.text));
    got[3][4][1][1] += 1e-4;
    assert.ok(maxGap(got, p.half) > 1e-5);
  });
});

describe("erf, against values of the error function to 15 digits", () => {
  // erf(x) from Abramowitz and Stegun's Table 7.1 and its standard values
  const table = [[0, 0], [0.5, 0.520499877813047], [1, 0.842700792949715], [2, 0.995322265018953], [3, 0.999977909503001], [-1.5, -0.966105146475311], [4, 0.999999984582742]];
  for (const [x, y] of table) test(`erf(${x})`, () => assert.ok(Math.abs(erf(x) - y) < 1e-14, `${erf(x)} vs ${y}`));
});

describe("a damaged file says what is wrong", () => {
  test("cut short", () => assert.throws(() => loadModel(bytes.slice(0, bytes.byteLength - 10)), /cut short/));
  test("cut in its header", () => assert.throws(() => loadModel(bytes.slice(0, 1000)), /cut short/));
  test("not the model", () => assert.throws(() => loadModel(new TextEncoder().encode("<!doctype html><html>…</html>").buffer), /not the site's model file/));
  test("too many tokens", () => assert.throws(() => attentions(model, Array(model.max_tokens + 1).fill(1000)), /at most/));
});
