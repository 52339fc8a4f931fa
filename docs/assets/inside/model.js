/* Inside the model: the explorer's maths and rules, with no DOM.
 *
 * compute() is attention_workshop.inside.compute in JavaScript float64: the same steps in the
 * same order (projections, scores, scale, causal mask, softmax, weighted sum, output projection),
 * on the toy block's weights from generated/inside-the-model.json. The rest are the explorer's
 * small rules: which step an address names, which words the toy knows, how many tokens it takes,
 * how a number or a count reads. inside.js draws the page with them; tests/js/model.test.mjs
 * checks them against the package's own JSON (the reference output to 1e-9).
 */

/** The words "one token more" adds, in turn (each must be a word of the toy vocabulary). */
export const FILL = ["river", "at", "the", "shore", "money", "bank", "a", "fish"];

// ------------------------------------------------------------------ words and tokens

/** Whether the toy vocabulary knows `word` (own keys only: "constructor" is not a word). */
export const isWord = (vocab, word) => typeof word === "string" && Object.hasOwn(vocab, word);

/** Throws an error a reader can act on unless `words` are 1 to max_tokens words of the toy vocabulary. */
export function checkWords(toy, words) {
  if (!Array.isArray(words) || words.length < 1 || words.length > toy.max_tokens) {
    const got = Array.isArray(words) ? `${words.length} words` : String(words);
    throw new RangeError(`the toy block takes 1 to ${toy.max_tokens} tokens, got ${got}`);
  }
  for (const w of words) {
    if (!isWord(toy.vocab, w)) {
      throw new Error(`unknown word ${JSON.stringify(w)}; the toy vocabulary knows: ${Object.keys(toy.vocab).join(", ")}`);
    }
  }
}

/** A row of n zeros: one token's nudge before any nudging. */
export const zeros = (n) => new Array(n).fill(0);

/** The words and nudges for T tokens (clamped to 1..max_tokens): cut from the end, or grown with FILL. */
export function withTokens(toy, words, nudge, T) {
  const n = Math.max(1, Math.min(toy.max_tokens, T));
  const w = words.slice(0, n), d = nudge.slice(0, n).map((row) => row.slice());
  while (w.length < n) {
    w.push(FILL[w.length % FILL.length]);
    d.push(zeros(toy.n_embd));
  }
  return { words: w, nudge: d };
}

// ------------------------------------------------------------------ steps and the address

/** The step shown for any requested n: a whole number from 1 to `count` (anything unreadable is 1). */
export const clampStep = (n, count) => Math.max(1, Math.min(count, Math.round(Number(n)) || 1));

/** The N of an address "#step=N" (as typed, clampStep reads it), or null for any other anchor. */
export function stepFromHash(hash) {
  const m = /^#step=([^&]*)$/.exec(hash);
  return m ? m[1] : null;
}

// ------------------------------------------------------------------ the maths (mirrors inside.compute)

const range = (n) => Array.from({ length: n }, (_, i) => i);

/** A · W + b: (T, n) x (n, m) + (m,) -> (T, m). */
export function matmulBias(A, W, b) {
  return A.map((row) => b.map((bj, j) => {
    let s = 0;
    for (let k = 0; k < W.length; k++) s += row[k] * W[k][j];
    return s + bj;
  }));
}

/** Softmax of one row, as attention_workshop.core.softmax: subtract the max, exponentiate, normalise. */
export function softmaxRow(row) {
  const m = Math.max(...row);
  const e = row.map((s) => Math.exp(s - m));
  let sum = 0;
  for (const v of e) sum += v;
  return e.map((v) => v / sum);
}

/** The block's input x: each word's toy axes, then its position numbers, plus the nudge. (T, C) */
export function inputs(toy, words, nudge) {
  checkWords(toy, words);
  const C = toy.n_embd;
  if (!Array.isArray(nudge) || nudge.length !== words.length ||
      !nudge.every((row) => Array.isArray(row) && row.length === C && row.every(Number.isFinite))) {
    throw new RangeError(`the nudge must be ${words.length} rows of ${C} finite numbers, one row per word`);
  }
  return words.map((w, i) => [...toy.vocab[w], ...toy.positions[i]].map((v, j) => v + nudge[i][j]));
}

/**
 * Run the toy block step by step and keep every intermediate, as inside.compute does.
 * Returns x, concat, y (T, C); qkv (T, 3C); q, k, v, heads (nh, T, hs);
 * scores, scaled, masked, weights (nh, T, T), with -Infinity above the diagonal of masked.
 */
export function compute(toy, words, nudge = words.map(() => zeros(toy.n_embd))) {
  const W = toy.weights, C = toy.n_embd, nh = toy.n_head, hs = toy.head_size, T = words.length;
  const x = inputs(toy, words, nudge);                                  // (T, C)
  const qkv = matmulBias(x, W.c_attn_weight, W.c_attn_bias);             // (T, C) x (C, 3C) -> (T, 3C)
  const split = (offset) => range(nh).map((h) =>                        // (T, 3C) -> (nh, T, hs)
    qkv.map((row) => row.slice(offset + h * hs, offset + (h + 1) * hs)));
  const q = split(0), k = split(C), v = split(2 * C);
  const scores = q.map((qh, h) => qh.map((qi) => k[h].map((kj) => {     // (nh, T, hs) x (nh, hs, T) -> (nh, T, T)
    let s = 0;
    for (let d = 0; d < hs; d++) s += qi[d] * kj[d];
    return s;
  })));
  const root = Math.sqrt(hs);
  const scaled = scores.map((g) => g.map((row) => row.map((s) => s / root)));                       // (nh, T, T)
  const masked = scaled.map((g) => g.map((row, i) => row.map((s, j) => (j > i ? -Infinity : s))));  // j > i: the future
  const weights = masked.map((g) => g.map(softmaxRow));                                            // (nh, T, T), rows sum to 1
  const heads = weights.map((g, h) => g.map((w) => range(hs).map((d) => {  // (nh, T, T) x (nh, T, hs) -> (nh, T, hs)
    let s = 0;
    for (let j = 0; j < T; j++) s += w[j] * v[h][j][d];
    return s;
  })));
  const concat = range(T).map((i) => heads.flatMap((hd) => hd[i]));      // heads side by side: (T, C)
  const y = matmulBias(concat, W.c_proj_weight, W.c_proj_bias);          // (T, C) x (C, C) -> (T, C)
  return { x, qkv, q, k, v, scores, scaled, masked, weights, heads, concat, y };
}

// ------------------------------------------------------------------ how numbers and counts read

/** A value with nd decimals, a real minus sign (U+2212), no "−0.00", and −∞ for a masked score. */
export function fmt(value, nd = 2) {
  if (value === -Infinity) return "−∞";
  let s = value.toFixed(nd);
  if (/^-0\.0*$/.test(s)) s = s.slice(1);
  return s.replace("-", "−");
}

/** A count: 1,000 or more gets thousands separators (shapes keep plain digits, as inside.py prints them). */
export const count = (n) => n.toLocaleString("en");

/** "1 token", "5 tokens", "1,024 tokens". */
export const plural = (n, word) => `${count(n)} ${n === 1 ? word : `${word}s`}`;

/** Row labels: "1 the", "2 boat", ... */
export const labels = (words) => words.map((w, i) => `${i + 1} ${w}`);

/** The sentences under the score grid: its size now, and what doubling the tokens does to it. */
export function growthText(growth, T) {
  const cells = growth[T - 1].cells;
  const out = [`${plural(T, "token")}: ${plural(cells, "score cell")} per head.`];
  if (2 * T <= growth.length) {
    const c2 = growth[2 * T - 1].cells;
    out.push(`Double to ${plural(2 * T, "token")}: ${plural(c2, "cell")}, ×${c2 / cells}.`);
  } else if (T % 2 === 0) {
    const c1 = growth[T / 2 - 1].cells;
    out.push(`Half as many (${plural(T / 2, "token")}): ${plural(c1, "cell")}, so doubling gave ×${cells / c1}.`);
  }
  return out;
}

// ------------------------------------------------------------------ token colours

/** "#rrggbb" as [r, g, b], each 0 to 255. */
export function rgb(hex) {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`a colour must be written #rrggbb, got ${JSON.stringify(hex)}`);
  return m.slice(1).map((h) => parseInt(h, 16));
}

/** [r, g, b] (each rounded and kept within 0 to 255) as "#rrggbb". */
export const hex = (c) => `#${c.map((v) => Math.max(0, Math.min(255, Math.round(v))).toString(16).padStart(2, "0")).join("")}`;

/** Token i's colour: the data's palette, in turn (token i gets palette[i % length]). */
export const tokenColour = (palette, i) => palette[i % palette.length];

/** The colours of T tokens. */
export const tokenColours = (palette, T) => Array.from({ length: T }, (_, i) => tokenColour(palette, i));

/**
 * The blend of `colours` in proportion to `weights` (one weight per colour): the weighted average
 * of their red, green and blue. A row of attention weights blends the colours of the tokens it
 * draws from, so an output row's colour shows where its information came from.
 */
export function blend(colours, weights) {
  if (colours.length !== weights.length || colours.length === 0) {
    throw new RangeError(`blend needs one weight per colour: ${colours.length} colours, ${weights.length} weights`);
  }
  let total = 0;
  for (const w of weights) {
    if (!(w >= 0)) throw new RangeError(`weights must be 0 or more, got ${w}`);
    total += w;
  }
  if (total === 0) throw new RangeError("the weights add up to 0: nothing to blend");
  const sum = [0, 0, 0];
  colours.forEach((c, j) => rgb(c).forEach((v, k) => { sum[k] += (weights[j] / total) * v; }));
  return hex(sum);
}

/**
 * Each output row's colour. For one head (a number), row i blends the tokens' colours by that head's
 * weights[head][i]; for both heads side by side (head = null), by the mean of every head's row i.
 */
export function outputColours(palette, weights, head) {
  const T = weights[0].length, colours = tokenColours(palette, T);
  return Array.from({ length: T }, (_, i) => {
    const rows = head === null ? weights.map((g) => g[i]) : [weights[head][i]];
    const mean = Array.from({ length: T }, (_, j) => rows.reduce((s, r) => s + r[j], 0) / rows.length);
    return blend(colours, mean);
  });
}
