// docs/assets/causal/model.js against the package: what the explorer of "A causal model" shows
// of a head equals workshop_site.causal_page.head_view on the same JSON, and that JSON's numbers
// are the package's own weights and scores, rounded as shown (tests/test_js.py writes both).
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { headView, level } from "../../docs/assets/causal/model.js";
import { cases, siteFile } from "./fixtures.mjs";

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
      got.before.forEach((s, j) => assert.ok(Math.abs(Number(s) - c.scores[j]) <= 0.05 + 1e-6, `score ${j}: ${s} vs ${c.scores[j]}`));
      got.after.forEach((s, j) => assert.equal(s === "−∞", j > token, `masked ${j}`));
    });
  }
  test("the heatmap's shades are the build's", () => {
    for (const [w, want] of cases.causal.levels) assert.equal(level(w), want, `${w} hundredths`);
  });
});
