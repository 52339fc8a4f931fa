/* The run box's Web Worker: downloads the model file once (the Cache API keeps it; offline after),
 * then tokenizes and runs each sentence with minilm.js, so that the page stays responsive.
 *
 * Messages in:  {type: "run", url, bytes, text}
 * Messages out: {type: "progress", got, total}, {type: "arrived"}, {type: "loaded", cached}, {type: "tokens", tokens},
 *               {type: "done", tokens, ids, attentions, ms}, {type: "error", message, retry}
 * Nothing is sent anywhere: the one request is the model file, from the site itself.
 */
import { attentions, loadModel, tokenizeWords } from "./minilm.js";

const CACHE = "attention-workshop-minilm-v1";
let model = null;

/** The file's bytes, from the cache if a complete copy is there, else downloaded with progress. */
async function download(url, total) {
  const store = typeof caches === "undefined" ? null : await caches.open(CACHE).catch(() => null);
  const hit = store && (await store.match(url));
  if (hit) {
    const buf = await hit.arrayBuffer();
    if (buf.byteLength === total) return [buf, true];
    await store.delete(url);
  }
  let res;
  try {
    res = await fetch(url);
  } catch {
    throw Object.assign(new Error("The model could not be downloaded (no connection to this site?)."), { retry: true });
  }
  if (!res.ok) throw Object.assign(new Error(`The model could not be downloaded (the site answered ${res.status}).`), { retry: true });
  const parts = [];
  let got = 0;
  const reader = res.body.getReader();
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch {
      break; // a connection cut: said below, with how much came
    }
    if (chunk.done) break;
    parts.push(chunk.value);
    got += chunk.value.byteLength;
    postMessage({ type: "progress", got, total });
  }
  if (got !== total) {
    const mb = (n) => (n / 1e6).toFixed(1);
    throw Object.assign(new Error(`The download stopped at ${mb(got)} of ${mb(total)} MB.`), { retry: true });
  }
  const buf = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    buf.set(p, at);
    at += p.byteLength;
  }
  if (store) await store.put(url, new Response(buf.slice().buffer)).catch(() => {});
  return [buf.buffer, false];
}

/** Tokens for the text, or an Error a reader can act on (too long: how many, and where it would cut). */
function tokensOf(text) {
  const tokens = tokenizeWords(model, text);
  if (tokens.length <= 2) throw new Error("The sentence has no word the model can read: type a few words.");
  if (tokens.length > model.max_tokens) {
    const kept = tokens.slice(1, model.max_tokens - 1).slice(-3).join(" ");
    throw new Error(`The sentence has ${tokens.length} tokens ([CLS] and [SEP] included); the model reads at most ${model.max_tokens}. Shorten it: the first ${model.max_tokens} would end at "${kept}".`);
  }
  return tokens;
}

onmessage = async (e) => {
  const { url, bytes, text } = e.data;
  try {
    if (!model) {
      const [buf, cached] = await download(url, bytes);
      postMessage({ type: "arrived" });
      try {
        model = loadModel(buf);
      } catch (err) {
        if (typeof caches !== "undefined") await caches.delete(CACHE).catch(() => {});
        throw Object.assign(new Error(`The downloaded model is damaged (${err.message}).`), { retry: true });
      }
      postMessage({ type: "loaded", cached });
    }
    const tokens = tokensOf(text);
    postMessage({ type: "tokens", tokens });
    const t0 = performance.now();
    const ids = tokens.map((t) => model.vocabIds.get(t));
    const att = attentions(model, ids);
    postMessage({ type: "done", tokens, ids, attentions: att, ms: performance.now() - t0 });
  } catch (err) {
    postMessage({ type: "error", message: err.message, retry: Boolean(err.retry) });
  }
};
