// The package's data for the Node tests: the JSON files the build writes and cases.json (see
// tests/test_js.py). pytest names their folder in ATTENTION_WORKSHOP_JS_DATA; started on its own,
// `node --test tests/js/` has Python write them first (the project's .venv, else $PYTHON or python3).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function writeData() {
  const dir = mkdtempSync(join(tmpdir(), "attention-workshop-js-"));
  const venv = join(ROOT, ".venv", "bin", "python");
  const python = process.env.PYTHON ?? (existsSync(venv) ? venv : "python3");
  execFileSync(python, ["-m", "tests.test_js", dir], { cwd: ROOT, stdio: "inherit" });
  return dir;
}

const dir = process.env.ATTENTION_WORKSHOP_JS_DATA ?? writeData();
/** The folder of that data (the model file the build writes is there too). */
export const dataDir = dir;
const read = (path) => JSON.parse(readFileSync(join(dir, path), "utf8"));

/** cases.json: inputs and results worked out by the package. */
export const cases = read("cases.json");
/** generated/inside-the-model.json, as the page fetches it. */
export const insideData = read(cases.inside_json);
/** generated/exam.json, as the page fetches it. */
export const examData = read(cases.exam_json);
/** Any file the build writes, by its path in the site (the Real heads page's index and sentences). */
export const siteFile = read;

/** The largest absolute difference between two nested arrays of numbers (null stands for -Infinity). */
export function maxGap(a, b, path = "") {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) {
      throw new Error(`shapes differ at ${path || "the top"}: ${JSON.stringify(a)?.slice(0, 60)} vs ${JSON.stringify(b)?.slice(0, 60)}`);
    }
    return Math.max(0, ...a.map((x, i) => maxGap(x, b[i], `${path}[${i}]`)));
  }
  const x = a ?? -Infinity, y = b ?? -Infinity;
  if (x === -Infinity || y === -Infinity) {
    if (x !== y) throw new Error(`${path}: ${x} vs ${y}`);
    return 0;
  }
  return Math.abs(x - y);
}
