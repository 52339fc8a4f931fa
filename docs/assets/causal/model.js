/* A causal model: the explorer's pure functions (no DOM). headView gives, from one sentence's
 * generated/causal/steps-<key>.json, what the page shows of one head and one token's row: the
 * same object as attention_workshop.experiment.causal_page.head_view (tests/js/causal.test.mjs
 * checks it).
 */

/** A weight's shade from its hundredths: how many of these thresholds it reaches (0 .. 5). */
export const LEVELS = [5, 15, 30, 50, 75];

export function level(hundredths) {
  return LEVELS.filter((t) => hundredths >= t).length;
}

/** nd decimals, never "-0.0" (as the package's fmt.fixed). */
export function fixed(x, nd) {
  const s = x.toFixed(nd);
  return s.startsWith("-") && Number(s) === 0 ? s.slice(1) : s;
}

/** Whole numbers bare, others to nd decimals (as fmt.num). */
export function num(x, nd) {
  return Number.isInteger(x) ? String(x) : fixed(x, nd);
}

/** Text as the page prints it: a true minus sign (U+2212), as the package's fmt.minus. */
export const minus = (s) => s.replaceAll("-", "\u2212");

/** A count with thousands separators, as fmt.count: 1,234,567. */
export const count = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

const tenths = (x) => minus(fixed(x / 10, 1));

/** The shapes table: each step, SmolLM2's shape and FLOPs, GPT-2's shape and FLOPs (the FLOPs of
 * one layer, from the JSON: the package's step_table); last, one layer's FLOPs in all. */
function shapes(data, head, T) {
  const m = data.model, g = data.gpt2, hs = m.head_size, group = m.n_head / m.n_kv_head;
  const t = `(${T}, ${hs})`, sq = `(${T}, ${T})`;
  const rows = [
    ["1. project", `q ${t}; k, v ${t} of key/value head ${Math.floor(head / group) + 1}`, `q, k, v ${t}`],
    ["2. score", sq, sq],
    ["3. scale", `÷ ${num(Math.sqrt(hs), 3)}`, `÷ ${num(Math.sqrt(g.head_size), 3)}`],
    ["4. mask", sq, sq],
    ["5. softmax", sq, sq],
    ["6. weighted sum", t, `(${T}, ${g.head_size})`],
    ["7. output", `${m.n_head} heads: (${T}, ${m.n_head * hs}) → (${T}, ${m.d_model})`,
      `${g.n_head} heads: (${T}, ${g.n_head * g.head_size}) → (${T}, ${g.d_model})`],
  ].map(([step, ours, theirs], i) => [step, ours, count(data.flops[i][0]), theirs, count(data.flops[i][1])]);
  const total = (n) => count(data.flops.reduce((a, f) => a + f[n], 0));
  return [...rows, ["one layer", "", total(0), "", total(1)]];
}

/** One head (layer, head counted from 0) and one token's row of a sentence's data. */
export function headView(data, layer, head, token) {
  const tokens = data.tokens, T = tokens.length;
  const scores = data.scores[layer][head], weights = data.weights[layer][head];
  return {
    title: `Layer ${layer + 1}, head ${head + 1}, row of token ${token + 1} (${tokens[token]})`,
    shapes: shapes(data, head, T),
    tokens,
    before: scores[token].map(tenths),
    after: scores[token].map((x, j) => (j <= token ? tenths(x) : "−∞")),
    weights: [...weights[token].map((w) => fixed(w / 100, 2)), ...Array(T - token - 1).fill("0")],
    width: data.model.head_size,
    size: tenths(data.sizes[layer][head][token]),
    heat: weights.map((row) => row.map((w) => [fixed(w / 100, 2), level(w)])),
    picked: token,
  };
}
