/* Real heads: the grid's rules and numbers, with no DOM.
 *
 * The data come from the build (attention_workshop.experiment.real_heads_page): index.json lists the
 * sentences, the classes and the sizes; each sentence's JSON holds its tokens, every head's
 * weights in thousandths, and each head's class and the number that put it there (as text) as the package measured them. Nothing
 * here measures a head again: these functions read the JSON, check it, and say how a head, a
 * weight or a move of the keyboard reads. heads.js draws the page with them;
 * tests/js/real-heads.test.mjs checks them against the package.
 */

/** Shades of a cell: a weight is drawn at the nearest tenth, as the build's SVG figures draw it. */
export const LEVELS = 10;

/** Text of a number with nd decimals, never "-0.00". */
export function fixed(x, nd = 2) {
  const s = Number(x).toFixed(nd);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

/** A weight as a cell prints it: two decimals without the leading zero (".68"), "1.00" when it rounds up. */
export function cellText(w) {
  const s = fixed(w, 2);
  return s.startsWith("0.") ? s.slice(1) : s;
}

/** The shade of a weight, 0 .. LEVELS. */
export const level = (w) => Math.max(0, Math.min(LEVELS, Math.round(w * LEVELS)));

/** Throws an error that says what is wrong unless `data` is a sentence the index describes. */
export function checkSentence(index, data) {
  const entry = index.sentences.find((s) => s.key === data?.key);
  if (!entry) throw new Error(`unknown sentence ${JSON.stringify(data?.key)}`);
  const T = data.tokens?.length;
  if (T !== entry.n_tokens) throw new Error(`${entry.key}: ${T} tokens, the index says ${entry.n_tokens}`);
  const { n_layer: L, n_head: H } = index;
  const ok = Array.isArray(data.weights) && data.weights.length === L && data.weights.every(
    (layer) => layer.length === H && layer.every((head) => head.length === T && head.every((row) => row.length === T)),
  );
  if (!ok) throw new Error(`${entry.key}: the weights are not ${L} x ${H} x ${T} x ${T}`);
  if (data.classes?.length !== L || data.classes.some((row) => row.length !== H)) {
    throw new Error(`${entry.key}: the classes are not ${L} x ${H}`);
  }
  return data;
}

/** One head's weights as numbers between 0 and 1: T rows of T. */
export const headWeights = (index, data, layer, head) =>
  data.weights[layer][head].map((row) => row.map((v) => v / index.scale));

/** The class of a head and the number that put it there, as the build wrote it, with what that
 * number measures: {id, label, short, score, number ("share", "normalised entropy" or "largest
 * share"), numberShort ("share", "entropy" or "max")}. */
export function headClass(index, data, layer, head) {
  const id = data.classes[layer][head];
  const cls = index.classes.find((c) => c.id === id);
  if (!cls) throw new Error(`unknown class ${JSON.stringify(id)}`);
  return {
    id, label: cls.label, short: index.short[id], score: data.score[layer][head],
    number: cls.number, numberShort: cls.number_short,
  };
}

/** A head's name, as the page writes it: "layer 1, head 3" for (0, 2). */
export const headName = (layer, head) => `layer ${layer + 1}, head ${head + 1}`;

/** What the grid prints under a head, a line each: ["prev", "share 1.00"]. */
export function shortLabel(index, data, layer, head) {
  const c = headClass(index, data, layer, head);
  return [c.short, `${c.numberShort} ${c.score}`];
}

/** A head's number, named for what it measures: "share 1.00", "normalised entropy 0.89". */
export function numberText(index, data, layer, head) {
  const c = headClass(index, data, layer, head);
  return `${c.number} ${c.score}`;
}

/** A head's accessible name: "layer 1, head 3: previous token, share 1.00". */
export function headLabel(index, data, layer, head) {
  const c = headClass(index, data, layer, head);
  return `${headName(layer, head)}: ${c.label}, ${numberText(index, data, layer, head)}`;
}

/** How many heads of a sentence are in each class, in the index's order of classes. */
export function classCounts(index, data) {
  const counts = Object.fromEntries(index.classes.map((c) => [c.id, 0]));
  for (const row of data.classes) for (const id of row) counts[id] += 1;
  return index.classes.map((c) => counts[c.id]);
}

/** Where a token looks most: the k tokens it gives the largest weights, [{j, w}], largest first. */
export function topLooks(weights, i, k = 3) {
  return weights[i].map((w, j) => ({ j, w }))
    .sort((a, b) => b.w - a.w || a.j - b.j)
    .slice(0, k);
}

/** The head a key moves to in a grid of L layers by H heads, or null for a key that does not move. */
export function move(layer, head, key, L, H) {
  const clamp = (x, n) => Math.max(0, Math.min(n - 1, x));
  switch (key) {
    case "ArrowLeft": return [layer, clamp(head - 1, H)];
    case "ArrowRight": return [layer, clamp(head + 1, H)];
    case "ArrowUp": return [clamp(layer - 1, L), head];
    case "ArrowDown": return [clamp(layer + 1, L), head];
    case "Home": return [layer, 0];
    case "End": return [layer, H - 1];
    case "PageUp": return [0, head];
    case "PageDown": return [L - 1, head];
    default: return null;
  }
}
