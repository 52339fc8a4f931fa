// docs/assets/causal/model.js against the package: what the explorer of "A causal model" shows
// of a head equals attention_workshop.experiment.causal_page.head_view on the same JSON, and
// that JSON's numbers are the package's own weights and scores, rounded as shown
// (tests/test_js.py writes both).
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { headView, level } from "../../docs/assets/causal/model.js";
import { cases, siteFile } from "./fixtures.mjs";

/** A number the page prints, read back: its minus sign is U+2212. */
const signed = (s) => Number(s.replace("\u2212", "-"));

describe("A causal model: one head's seven steps", () => {
  for (const c of cases.causal.views) {
    const [layer, head, token] = c.at;
    const name = `${c.file}: layer ${layer + 1}, head ${head + 1}, token ${token + 1}`;
    const got = headView(siteFile(c.file), layer, head, token);
    test(`${name}: the view is the build's`, () => {
      assert.deepEqual(got, c.view);
    });
    test(`${name}: the numbers shown are the package's, rounded`, () => {
      got.weights.forEach((w, j) => assert.ok(Math.abs(Number(w) - c.weights[j]) <= 0.005 + 1e-9, `weight ${j}: ${w} vs ${c.weights[j]}`));
      got.before.forEach((s, j) => assert.ok(Math.abs(signed(s) - c.scores[j]) <= 0.05 + 1e-6, `score ${j}: ${s} vs ${c.scores[j]}`));
      got.after.forEach((s, j) => assert.equal(s === "−∞", j > token, `masked ${j}`));
    });
  }
  test("each step's FLOPs are the page's table of the seven steps at real size", () => {
    for (const c of cases.causal.views) {
      const got = headView(siteFile(c.file), ...c.at).shapes;
      const counted = got.map((r) => [r[2], r[4]].map((x) => Number(x.replaceAll(",", ""))));
      const sums = [0, 1].map((n) => c.flops.reduce((a, f) => a + f[n], 0));
      assert.deepEqual(counted, [...c.flops, sums], c.file);
      got.forEach((r) => [r[2], r[4]].forEach((x) => assert.match(x, /^\d{1,3}(,\d{3})*$/, `${c.file}: ${r[0]}`)));
    }
  });
  test("a negative number is written with a true minus sign (U+2212), never a hyphen", () => {
    let negatives = 0;
    for (const c of cases.causal.views) {
      const v = headView(siteFile(c.file), ...c.at);
      for (const s of [...v.before, ...v.after.filter((x) => x !== "−∞"), v.size]) {
        assert.match(s, /^−?\d+\.\d$/, `${c.file} ${c.at}: ${s}`);
        if (s.startsWith("−")) negatives += 1;
      }
    }
    assert.ok(negatives > 0, "no case shows a negative score: the check proves nothing");
  });
  test("the heatmap's shades are the build's", () => {
    for (const [w, want] of cases.causal.levels) assert.equal(level(w), want, `${w} hundredths`);
  });
});
