/* The run box's figures for the reader's sentence: the grid of every head and one head large, as
 * SVG text in either colour scheme, and their numbers as CSV. No DOM and no imports (run.js puts
 * the text on the page and in the downloads; tests/js/figures.test.mjs reads it in Node). Kept apart
 * from the page's other drawing code on purpose: nothing here changes when that does.
 *
 * Like the build's figures, a weight is drawn at the nearest tenth of full ink, and the CSVs are
 * the build's: the same columns, every number with six decimals.
 */

/** Ink, paper and text of each scheme: the page's own (heads.css: --rh-thumb, --rh-paper). */
export const SCHEMES = {
  light: { ink: "#173f85", paper: "#f4f6fb", text: "#1f2430", back: "#ffffff" },
  dark: { ink: "#c2d7ff", paper: "#2b2f3a", text: "#e6e8ee", back: "#1e2129" },
};
/** Shades of a cell, as the build's figures and the grid draw them. */
export const LEVELS = 10;
export const level = (w) => Math.max(0, Math.min(LEVELS, Math.round(w * LEVELS)));

/** Text for XML: & < > and quotes escaped. */
export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A field of a CSV row: quoted when it holds a comma, a quote or a line break. */
const field = (v) => (typeof v === "string" && /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : String(v));
/** A float as the build's CSVs write one (Python's f"{x:.6f}"): six decimals. */
const f6 = (x) => x.toFixed(6);
const csv = (rows) => rows.map((r) => r.map(field).join(",")).join("\n") + "\n";

/** One head's T x T weights as rects at (x, y), each cell `s` wide. */
function cells(w, x, y, s, ink) {
  let out = "";
  w.forEach((row, i) => row.forEach((v, j) => {
    const l = level(v);
    if (l > 0) out += `<rect x="${(x + j * s).toFixed(2)}" y="${(y + i * s).toFixed(2)}" width="${s.toFixed(2)}" height="${s.toFixed(2)}" fill="${ink}" fill-opacity="${l / LEVELS}"/>`;
  }));
  return out;
}

/** The page's head classes (src/attention_workshop/chapters/real_heads/measures.py, the same
 * rules): the places a head may send its attention to, the share a place needs, the spread a broad
 * head needs, and how the grid names each class and the number that put a head in it. */
export const PLACES = ["previous", "next", "self", "cls", "sep"];
export const SHARE = 0.5, BROAD = 0.7;
const SHORT = { previous: "prev", next: "next", self: "self", cls: "CLS", sep: "SEP", broad: "broad", other: "other" };
const NUMBER = { broad: "entropy", other: "max" }; // a place's class: "share"

/** A head's six measures, as the package's head_scores: the mean share each of PLACES gets
 * (over the rows that have that place), then the spread (entropy / ln T, averaged over the rows). */
export function measures(w) {
  const T = w.length;
  const mean = (f, from, to) => { let s = 0; for (let i = from; i < to; i++) s += f(i); return s / (to - from); };
  return [
    mean((i) => w[i][i - 1], 1, T), mean((i) => w[i][i + 1], 0, T - 1), mean((i) => w[i][i], 0, T),
    mean((i) => w[i][0], 0, T), mean((i) => w[i][T - 1], 0, T),
    mean((i) => -w[i].reduce((a, p) => (p > 0 ? a + p * Math.log(p) : a), 0) / Math.log(T), 0, T),
  ];
}

/** One head's class and its number: the place with the largest mean share if it gets SHARE or
 * more, else "broad" if its mean normalised entropy is BROAD or more (the number is then that
 * entropy), else "other" (the number is the largest share). */
export function headClass(w) {
  const m = measures(w);
  const shares = m.slice(0, PLACES.length), spread = m[PLACES.length];
  let best = 0;
  shares.forEach((v, k) => { if (v > shares[best]) best = k; });
  const top = shares[best];
  const cls = top >= SHARE ? PLACES[best] : spread >= BROAD ? "broad" : "other";
  return { cls, score: cls === "broad" ? spread : top, measures: m };
}

/** The two lines the grid prints under a head, as the page's grid prints them: "prev", "share 0.93". */
export const classLabel = ({ cls, score }) => [SHORT[cls], `${NUMBER[cls] ?? "share"} ${score.toFixed(2)}`];

/** Every head at once: layers down, heads across, counted from 1 as the page counts them, each
 * with its class and number under it. */
export function gridSvg(text, att, scheme = "light") {
  const p = SCHEMES[scheme];
  const L = att.length, H = att[0].length, T = att[0][0].length;
  const box = 64, gap = 16, under = 30, left = 64, top = 44;
  const W = left + H * (box + gap), Ht = top + L * (box + under + gap) + 8;
  const s = box / T;
  let body = `<rect width="${W}" height="${Ht}" fill="${p.back}"/>`;
  body += `<text x="${left}" y="16" fill="${p.text}" font-size="13" font-weight="bold">All heads: "${esc(text)}"</text>`;
  for (let n = 0; n < H; n++) body += `<text x="${left + n * (box + gap) + box / 2}" y="${top - 8}" fill="${p.text}" font-size="11" text-anchor="middle">${n + 1}</text>`;
  for (let l = 0; l < L; l++) {
    const y = top + l * (box + under + gap);
    body += `<text x="${left - 8}" y="${y + box / 2 + 4}" fill="${p.text}" font-size="11" text-anchor="end">layer ${l + 1}</text>`;
    for (let n = 0; n < H; n++) {
      const x = left + n * (box + gap);
      const [name, number] = classLabel(headClass(att[l][n]));
      body += `<g><title>layer ${l + 1}, head ${n + 1}: ${name}, ${number}</title><rect x="${x}" y="${y}" width="${box}" height="${box}" fill="${p.paper}"/>${cells(att[l][n], x, y, s, p.ink)}`;
      body += `<text x="${x + box / 2}" y="${y + box + 13}" fill="${p.text}" font-size="11" text-anchor="middle">${name}</text>`;
      body += `<text x="${x + box / 2}" y="${y + box + 26}" fill="${p.text}" font-size="11" text-anchor="middle">${number}</text></g>`;
    }
  }
  const desc = `Heatmaps of all ${L * H} heads of all-MiniLM-L6-v2 on "${esc(text)}", computed in this browser: ${L} layers down, ${H} heads across; each row of a heatmap is where one of its ${T} tokens looks, ${scheme === "dark" ? "lighter" : "darker"} for more weight. Under each head: its class, then the number that put it there (share: the share its class's place gets; entropy: a broad head's normalised entropy; max: an other head's largest share).`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${Ht}" width="${W}" height="${Ht}" role="img" aria-labelledby="g-title g-desc" font-family="system-ui, sans-serif"><title id="g-title">All heads: ${esc(text)}</title><desc id="g-desc">${desc}</desc>${body}</svg>`;
}

/** One head large: tokens on both sides (rows look, columns are looked at) and every weight. */
export function headSvg(tokens, w, title, scheme = "light") {
  const p = SCHEMES[scheme];
  const T = tokens.length, s = 34;
  const longest = Math.max(...tokens.map((t) => t.length));
  const left = 12 + 7 * longest, top = 28 + 7 * longest;
  const W = left + T * s + 12, Ht = top + T * s + 12;
  let body = `<rect width="${W}" height="${Ht}" fill="${p.back}"/>`;
  body += `<text x="12" y="18" fill="${p.text}" font-size="13" font-weight="bold">${esc(title)}</text>`;
  tokens.forEach((t, i) => {
    body += `<text x="${left - 6}" y="${top + i * s + s / 2 + 4}" fill="${p.text}" font-size="12" text-anchor="end">${esc(t)}</text>`;
    const cx = left + i * s + s / 2;
    body += `<text transform="translate(${cx + 4} ${top - 6}) rotate(-60)" fill="${p.text}" font-size="12">${esc(t)}</text>`;
  });
  body += `<rect x="${left}" y="${top}" width="${T * s}" height="${T * s}" fill="${p.paper}"/>`;
  body += cells(w, left, top, s, p.ink);
  w.forEach((row, i) => row.forEach((v, j) => {
    const strong = level(v) >= 6;
    const fg = strong ? p.back : p.text;
    const t = v.toFixed(2).replace(/^0\./, ".");
    body += `<text x="${left + j * s + s / 2}" y="${top + i * s + s / 2 + 4}" fill="${fg}" font-size="11" text-anchor="middle">${t}</text>`;
  }));
  const desc = `Heatmap of ${esc(title)}: each of the ${T} tokens (rows) and how much weight it gives each token (columns); each row sums to 1.`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${Ht}" width="${W}" height="${Ht}" role="img" aria-labelledby="h-title h-desc" font-family="system-ui, sans-serif"><title id="h-title">${esc(title)}</title><desc id="h-desc">${desc}</desc>${body}</svg>`;
}

/** Every weight of every head: one row per layer, head and query token (counted from 1). */
export function gridCsv(tokens, att) {
  const rows = [["layer", "head", "query", ...tokens]];
  att.forEach((layer, l) => layer.forEach((head, n) => head.forEach((row, i) => {
    rows.push([l + 1, n + 1, tokens[i], ...row.map(f6)]);
  })));
  return csv(rows);
}

/** Every head's class, score and six measures, one row per head: the page's grid CSV
 * (real_heads_page.classes_csv), with its labels. */
export const CLASS_NAMES = { previous: "previous token", next: "next token", self: "self", cls: "[CLS]", sep: "[SEP]", broad: "broad", other: "other" };
export const SCORE_IS = { broad: "normalised entropy", other: "largest share" }; // a place's class: "share"
export function classesCsv(att) {
  const rows = [["layer", "head", "class", "score", ...PLACES, "broad", "score_is"]];
  att.forEach((layer, l) => layer.forEach((w, n) => {
    const { cls, score, measures: m } = headClass(w);
    rows.push([l + 1, n + 1, CLASS_NAMES[cls], f6(score), ...m.map(f6), SCORE_IS[cls] ?? "share"]);
  }));
  return csv(rows);
}

/** One head's weights, as the build's head CSVs: the query token, then its weight on each token. */
export function headCsv(tokens, w) {
  return csv([["query", ...tokens], ...w.map((row, i) => [tokens[i], ...row.map(f6)])]);
}
