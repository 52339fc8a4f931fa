// make bench (tools/bench.py): minilm.js's forward pass in Node on one sentence, after one warm-up.
// node tools/bench_minilm.mjs MODEL_FILE RUNS SENTENCE -> a JSON list of seconds, one per run.
import { readFileSync } from "node:fs";

import { attentions, loadModel, tokenize } from "../docs/assets/minilm/minilm.js";

const [file, runs, sentence] = process.argv.slice(2);
const buf = readFileSync(file);
const model = loadModel(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
const ids = tokenize(model, sentence);
if (ids.length !== 12) throw new Error(`the bench sentence has ${ids.length} tokens, not 12`);
attentions(model, ids);
const times = [];
for (let n = 0; n < Number(runs); n++) {
  const t0 = performance.now();
  attentions(model, ids);
  times.push((performance.now() - t0) / 1000);
}
console.log(JSON.stringify(times));
