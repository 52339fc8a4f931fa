/* The final exam's rules, with no DOM: reading a typed number, grading a sheet of answers, and
 * checking and merging the progress a browser keeps in its local storage.
 *
 * parseNumber, isCorrect, grade and joinLabels mirror attention_workshop.exam (parse_number,
 * is_correct, grade, _join_labels); tests/js/grading.test.mjs and tests/test_browser_exam.py prove
 * the two agree. exam.js (the page) imports this module.
 */

// ------------------------------------------------------------------ grading (mirrors exam.py)

// After NFKC, only these count as spaces (exam.py's _SPACES); digits are ASCII only.
const SPACES = /[ \t\n\r\f\v]+/g;
const THOUSANDS = /^[+-]?[1-9][0-9]{0,2}(,[0-9]{3})+(\.[0-9]+)?$/;
const DECIMAL_COMMA = /^[+-]?[0-9]+,[0-9]+$/;
const NUMBER = /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/;

/** A typed number, or null: NFKC first, spaces ignored, 147,456 and 0,5 understood. */
export function parseNumber(text) {
  let s = String(text).normalize("NFKC").replace(SPACES, "");
  if (THOUSANDS.test(s)) s = s.replace(/,/g, "");
  else if (DECIMAL_COMMA.test(s)) s = s.replace(",", ".");
  if (!NUMBER.test(s)) return null;
  const x = Number(s);
  return Number.isFinite(x) ? x : null;
}

/** Whether one response answers question q (an entry of exam.json's questions). */
export function isCorrect(q, response, slack) {
  switch (q.kind) {
    case "single":
      return typeof response === "string" && response === q.answer;
    case "multiple": {
      if (!Array.isArray(response)) return false;
      const want = [...q.answer].sort(), got = [...new Set(response)].sort();
      return want.length === got.length && want.every((k, i) => k === got[i]);
    }
    case "numeric": {
      if (typeof response !== "string") return false;
      const x = parseNumber(response);
      return x !== null && Math.abs(x - q.answer) <= q.tol + slack;
    }
    default:
      throw new Error(`unknown question kind ${q.kind}`);
  }
}

/** {score, n, passed, percent, correct: {id: bool}} for answers {id: response}, with exam.json's data. */
export function grade(data, answers) {
  const correct = {};
  let score = 0;
  for (const q of data.questions) {
    correct[q.id] = Object.hasOwn(answers, q.id) && isCorrect(q, answers[q.id], data.slack);
    if (correct[q.id]) score += 1;
  }
  const n = data.questions.length;
  return { score, n, passed: 100 * score >= data.pass_mark * n, percent: (100 * score / n).toFixed(1), correct };
}

/** Option labels as one line (exam.py's _join_labels): sentences follow each other, short labels take "; ". */
export function joinLabels(labels) {
  return labels.join(labelSeparator(labels));
}

/** What joinLabels puts between two of these labels: a space after sentences, "; " otherwise. */
export function labelSeparator(labels) {
  const sentences = labels.length > 0 && labels.every((l) => /[.?!]$/.test(l));
  return sentences ? " " : "; ";
}

// ------------------------------------------------------------------ saved progress
//
// What the page keeps in localStorage, under a key that names the exam's version:
//   { version: "<the form's data-version>",
//     answers:  { questionId: response },   // as grade() takes them
//     edited:   { questionId: time },       // when each answer was last changed (ms); a time
//                                           // without an answer is an answer cleared then
//     gradedAt: time }                      // when it was last graded, 0 if never
// The form is described by `exam`: { version, questions: { questionId: { kind, options: [keys] } } }.

const isPlainObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isTime = (v) => typeof v === "number" && Number.isFinite(v) && v >= 0;

/** Progress with nothing answered. */
export const emptyProgress = (version) => ({ version, answers: {}, edited: {}, gradedAt: 0 });

/** Why `response` cannot be an answer to question `q` of the form, or "" when it can. */
function responseProblem(q, response) {
  if (q.kind === "numeric") return typeof response === "string" ? "" : "a typed answer is not text";
  if (q.kind === "single") return q.options.includes(response) ? "" : "a chosen option is not one of the question's";
  if (!Array.isArray(response) || !response.every((k) => q.options.includes(k))) return "ticked options are not the question's";
  return new Set(response).size === response.length ? "" : "an option is ticked twice";
}

/**
 * Read saved progress (the stored text) for the form `exam`.
 * Returns { progress } when it is good (progress null when nothing is saved), or { problem }
 * naming the first thing wrong with it: the caller discards such progress.
 * Progress saved before answers carried times ({answers, graded}) is read too.
 */
export function readProgress(text, exam) {
  if (text === null || text === undefined) return { progress: null };
  let raw;
  try { raw = JSON.parse(text); } catch { return { problem: "it is not JSON" }; }
  if (!isPlainObject(raw)) return { problem: "it is not an object" };
  if (!Object.hasOwn(raw, "version") && !Object.hasOwn(raw, "edited")) { // the first format: no times, no version
    if (Object.hasOwn(raw, "graded") && typeof raw.graded !== "boolean") return { problem: "graded is not true or false" };
    raw = { version: exam.version, answers: raw.answers, edited: {}, gradedAt: raw.graded ? 1 : 0 };
  }
  if (raw.version !== exam.version) return { problem: "it belongs to another version of the exam" };
  if (!isPlainObject(raw.answers)) return { problem: "answers is not an object" };
  if (!isPlainObject(raw.edited)) return { problem: "edited is not an object" };
  if (!isTime(raw.gradedAt)) return { problem: "gradedAt is not a time" };
  const progress = emptyProgress(exam.version);
  progress.gradedAt = raw.gradedAt;
  for (const [id, response] of Object.entries(raw.answers)) {
    if (!Object.hasOwn(exam.questions, id)) return { problem: `it answers an unknown question ${JSON.stringify(id)}` };
    const why = responseProblem(exam.questions[id], response);
    if (why) return { problem: `question ${id}: ${why}` };
    progress.answers[id] = response;
  }
  for (const [id, time] of Object.entries(raw.edited)) {
    if (!Object.hasOwn(exam.questions, id)) return { problem: `it dates an unknown question ${JSON.stringify(id)}` };
    if (!isTime(time)) return { problem: `question ${id}: its time is not a time` };
    progress.edited[id] = time;
  }
  return { progress };
}

/**
 * Two tabs' progress as one: for each question the later edit wins (an answer, or its clearing);
 * at equal times (never edited) an answer wins over none, `mine` first. gradedAt is the later one.
 */
export function mergeProgress(mine, theirs) {
  const out = emptyProgress(mine.version);
  out.gradedAt = Math.max(mine.gradedAt, theirs.gradedAt);
  const ids = new Set([mine, theirs].flatMap((p) => [...Object.keys(p.answers), ...Object.keys(p.edited)]));
  for (const id of ids) {
    const tm = mine.edited[id] ?? 0, tt = theirs.edited[id] ?? 0;
    const from = tt > tm || (tt === tm && !Object.hasOwn(mine.answers, id)) ? theirs : mine;
    if (Object.hasOwn(from.answers, id)) out.answers[id] = from.answers[id];
    if (Math.max(tm, tt) > 0) out.edited[id] = Math.max(tm, tt);
  }
  return out;
}

/** Whether the progress was graded after its last edit (so a reload shows the grade again). */
export const isGraded = (p) => p.gradedAt > 0 && Object.values(p.edited).every((t) => t <= p.gradedAt);
