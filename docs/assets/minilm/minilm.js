/* all-MiniLM-L6-v2 in plain JavaScript: its tokenizer and its forward pass, up to every head's weights.
 *
 * One ES module with no imports and no DOM: it runs unchanged in Node 20 and in a browser (the
 * Real heads page's run box runs it in a Web Worker). It reads the file the site's build writes
 * (attention_workshop.trained.browser: the magic "AWMINILM", a JSON header, then float16 tensors)
 * and exports three functions:
 *
 *   loadModel(bytes)       an ArrayBuffer of that file -> the model
 *   tokenize(model, text)  the WordPiece ids, [CLS] first and [SEP] last (tokens: tokenizeWords)
 *   attentions(model, ids) every head's weights: layers x heads x T x T, nested arrays of numbers
 *
 * The arithmetic is the package's (attention_workshop.trained): JavaScript's numbers are float64,
 * so the pass equals the package's float64 pass over the same float16 weights up to the order of
 * its sums. tests/js/minilm.test.mjs checks both functions against the package and `tokenizers`.
 */

const MAGIC = "AWMINILM";

/** Decodes one IEEE 754 half-precision number (its 16 bits) into a JavaScript number. */
function half(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 0x1f) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** The model from the bytes of the build's file; throws an Error that says what is wrong. */
export function loadModel(bytes) {
  if (!(bytes instanceof ArrayBuffer)) throw new TypeError("loadModel needs an ArrayBuffer of the model file");
  if (bytes.byteLength < 12) throw new Error(`the model file is cut short (${bytes.byteLength} bytes)`);
  const magic = String.fromCharCode(...new Uint8Array(bytes, 0, 8));
  if (magic !== MAGIC) throw new Error("this is not the site's model file (its first bytes differ)");
  const n = new DataView(bytes).getUint32(8, true);
  if (12 + n > bytes.byteLength) throw new Error("the model file is cut short (its header is incomplete)");
  const head = JSON.parse(new TextDecoder().decode(new Uint8Array(bytes, 12, n)));
  if (head.format !== 1 || head.dtype !== "float16") throw new Error(`unknown model file format ${head.format} (${head.dtype})`);
  const table = new Float32Array(65536);
  for (let b = 0; b < 65536; b++) table[b] = half(b);
  const start = 12 + n;
  const weights = {};
  for (const t of head.tensors) {
    const size = t.shape.reduce((a, b) => a * b, 1);
    if (start + t.offset + 2 * size > bytes.byteLength) {
      throw new Error(`the model file is cut short (${bytes.byteLength} bytes, ${t.name} is missing)`);
    }
    const raw = new Uint16Array(bytes.slice(start + t.offset, start + t.offset + 2 * size));
    const w = new Float32Array(size); // float16 values are exact in float32
    for (let i = 0; i < size; i++) w[i] = table[raw[i]];
    weights[t.name] = { shape: t.shape, data: w };
  }
  const vocab = new Map(head.vocab.map((tok, id) => [tok, id]));
  return { ...head, tokens: head.vocab, vocabIds: vocab, weights };
}

// ---------------------------------------------------------------- the tokenizer (BERT's, as `tokenizers` has it)

/** Characters `tokenizers` pads with spaces: the CJK ideographs' blocks of BERT's tokenizer. */
const CJK = [
  [0x4e00, 0x9fff], [0x3400, 0x4dbf], [0x20000, 0x2a6df], [0x2a700, 0x2b73f],
  [0x2b740, 0x2b81f], [0x2b920, 0x2ceaf], [0xf900, 0xfaff], [0x2f800, 0x2fa1f],
];
const isCJK = (cp) => CJK.some(([a, b]) => cp >= a && cp <= b);

/** Whether code point cp is in runs [[first, last], ...] (sorted): a binary search. */
function inRuns(runs, cp) {
  let lo = 0, hi = runs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < runs[mid][0]) hi = mid - 1;
    else if (cp > runs[mid][1]) lo = mid + 1;
    else return true;
  }
  return false;
}
/** The special tokens, matched in the raw text as `tokenizers` does (case and all). */
const SPECIAL = /(\[PAD\]|\[UNK\]|\[CLS\]|\[SEP\]|\[MASK\])/;

/** BERT's normalizer: control characters out, whitespace to spaces, CJK spaced, accents out, lower
 * case. Which character is which comes from `tokenizers` itself (the file's "unicode" tables), not
 * from the browser's own Unicode version; NFD and lower case are JavaScript's, one character at a
 * time as `tokenizers` does (so a final sigma stays σ). */
export function normalize(model, text) {
  const u = model.unicode;
  let out = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    if (cp === 0 || cp === 0xfffd || (cp >= 0xd800 && cp <= 0xdfff) || inRuns(u.removed, cp)) continue;
    else if (inRuns(u.space, cp)) out += " ";
    else if (isCJK(cp)) out += ` ${ch} `;
    else out += ch;
  }
  let plain = "";
  for (const ch of out.normalize("NFD")) {
    if (!inRuns(u.mark, ch.codePointAt(0))) plain += model.tokenizer.lowercase ? ch.toLowerCase() : ch;
  }
  return plain;
}

/** BERT's pre-tokenizer: split at whitespace, and every punctuation mark a word of its own. */
export function words(model, text) {
  const out = [];
  let word = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    const space = inRuns(model.unicode.space, cp);
    if (space || inRuns(model.unicode.punct, cp)) {
      if (word) out.push(word);
      word = "";
      if (!space) out.push(ch);
    } else word += ch;
  }
  if (word) out.push(word);
  return out;
}

/** One word's WordPiece tokens: the longest piece of the vocabulary first; [UNK] when none fits. */
export function wordPiece(model, word) {
  const { unk, prefix, max_chars: maxChars } = model.tokenizer;
  const chars = [...word];
  if (chars.length > maxChars) return [unk];
  const pieces = [];
  for (let start = 0; start < chars.length;) {
    let end = chars.length;
    let found = null;
    for (; end > start; end--) {
      const piece = (start > 0 ? prefix : "") + chars.slice(start, end).join("");
      if (model.vocabIds.has(piece)) {
        found = piece;
        break;
      }
    }
    if (found === null) return [unk];
    pieces.push(found);
    start = end;
  }
  return pieces;
}

/** The sentence's tokens as strings, [CLS] first and [SEP] last. */
export function tokenizeWords(model, text) {
  if (typeof text !== "string") throw new TypeError("the model reads one sentence as a string");
  const out = [model.tokenizer.cls];
  text.split(SPECIAL).forEach((part, i) => {
    if (i % 2 === 1) out.push(part);
    else for (const w of words(model, normalize(model, part))) out.push(...wordPiece(model, w));
  });
  out.push(model.tokenizer.sep);
  return out;
}

/** The sentence's WordPiece ids, [CLS] first and [SEP] last (no limit on their number here). */
export function tokenize(model, text) {
  return tokenizeWords(model, text).map((t) => model.vocabIds.get(t));
}

// ---------------------------------------------------------------- the forward pass

/** x (T rows of n) times W^T plus b, with W stored (out, in) as PyTorch's Linear has it. Each row
 * of W is read once for all T tokens (the weights are the large part: this keeps them in cache). */
function dense(model, x, name) {
  const { shape: [nOut, nIn], data: W } = model.weights[`${name}.weight`];
  const b = model.weights[`${name}.bias`].data;
  const T = x.length;
  const y = x.map(() => new Float64Array(nOut));
  for (let o = 0; o < nOut; o++) {
    const base = o * nIn;
    for (let t = 0; t < T; t++) {
      const row = x[t];
      let s = 0;
      for (let i = 0; i < nIn; i++) s += row[i] * W[base + i];
      y[t][o] = s + b[o];
    }
  }
  return y;
}

/** LayerNorm over each row: (x - mean) / sqrt(var + eps) * gamma + beta, the biased variance. */
function norm(model, x, name) {
  const g = model.weights[`${name}.weight`].data;
  const b = model.weights[`${name}.bias`].data;
  return x.map((row) => {
    const C = row.length;
    let mean = 0;
    for (let i = 0; i < C; i++) mean += row[i];
    mean /= C;
    let v = 0;
    for (let i = 0; i < C; i++) v += (row[i] - mean) ** 2;
    const sd = Math.sqrt(v / C + model.eps);
    return row.map((xi, i) => ((xi - mean) / sd) * g[i] + b[i]);
  });
}

/** erf, to float64's last few bits: its series near 0, its continued fraction (erfc) further out. */
export function erf(x) {
  const z = Math.abs(x);
  if (z < 3) {
    let term = z, sum = z;
    for (let n = 1; Math.abs(term) > 1e-17 * Math.abs(sum); n++) {
      term *= (-z * z) / n;
      sum += term / (2 * n + 1);
    }
    return Math.sign(x) * sum * (2 / Math.sqrt(Math.PI));
  }
  if (z > 6) return Math.sign(x);
  // erfc(z) = exp(-z^2) / sqrt(pi) * 1 / (z + 1/2 / (z + 1 / (z + 3/2 / (z + ...)))), evaluated bottom up
  let f = z;
  for (let k = 60; k >= 1; k--) f = z + k / 2 / f;
  return Math.sign(x) * (1 - Math.exp(-z * z) / Math.sqrt(Math.PI) / f);
}

const gelu = (x) => 0.5 * x * (1 + erf(x / Math.SQRT2));

/** One layer's attention: every head's weights (nh x T x T) and the heads' output, projected. */
function selfAttention(model, x, i) {
  const a = `encoder.layer.${i}.attention.`;
  const [q, k, v] = ["query", "key", "value"].map((p) => dense(model, x, `${a}self.${p}`));
  const T = x.length, nh = model.n_head, hs = model.d_model / nh;
  const scale = 1 / Math.sqrt(hs);
  const att = [];
  const y = x.map(() => new Float64Array(model.d_model));
  for (let h = 0; h < nh; h++) {
    const o = h * hs;
    const rows = [];
    for (let t = 0; t < T; t++) {
      const s = new Array(T);
      for (let u = 0; u < T; u++) {
        let d = 0;
        for (let c = 0; c < hs; c++) d += q[t][o + c] * k[u][o + c];
        s[u] = d * scale;
      }
      const m = Math.max(...s);
      const e = s.map((z) => Math.exp(z - m));
      const sum = e.reduce((p, z) => p + z, 0);
      const w = e.map((z) => z / sum);
      for (let u = 0; u < T; u++) for (let c = 0; c < hs; c++) y[t][o + c] += w[u] * v[u][o + c];
      rows.push(w);
    }
    att.push(rows);
  }
  return [dense(model, y, `${a}output.dense`), att];
}

/** Every head's weights for the ids: layers x heads x T x T, each row summing to 1. */
export function attentions(model, ids) {
  if (!Array.isArray(ids) || ids.length === 0 || ids.some((id) => !Number.isInteger(id) || id < 0 || id >= model.vocab.length)) {
    throw new Error("attentions needs a list of the vocabulary's ids (tokenize gives one)");
  }
  if (ids.length > model.max_tokens) throw new Error(`${ids.length} tokens: the model reads at most ${model.max_tokens}`);
  const w = model.weights, C = model.d_model;
  const pos = w["embeddings.position_embeddings.weight"].data;
  const word = w["embeddings.word_embeddings.weight"].data;
  const seg = w["embeddings.token_type_embeddings.weight"].data;
  let x = ids.map((id, t) => {
    const row = new Float64Array(C);
    for (let c = 0; c < C; c++) row[c] = word[id * C + c] + pos[t * C + c] + seg[c];
    return row;
  });
  x = norm(model, x, "embeddings.LayerNorm");
  const out = [];
  for (let i = 0; i < model.n_layer; i++) {
    const p = `encoder.layer.${i}.`;
    const [y, att] = selfAttention(model, x, i);
    x = norm(model, x.map((r, t) => r.map((v, c) => v + y[t][c])), `${p}attention.output.LayerNorm`);
    const hdn = dense(model, x, `${p}intermediate.dense`).map((r) => r.map(gelu));
    const f = dense(model, hdn, `${p}output.dense`);
    x = norm(model, x.map((r, t) => r.map((v, c) => v + f[t][c])), `${p}output.LayerNorm`);
    out.push(att);
  }
  return out;
}
