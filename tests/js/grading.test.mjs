// docs/assets/exam/grading.js against the package: the grade of about 250 answer sheets, every
// number reading and label join as attention_workshop.exam gives them (tests/test_js.py), and the
// rules for saved progress: what is discarded, and how two tabs' answers merge.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  emptyProgress, grade, isCorrect, isGraded, joinLabels, mergeProgress, parseNumber, readProgress,
} from "../../docs/assets/exam/grading.js";
import { cases, examData } from "./fixtures.mjs";

const { sheets, numbers, labels, form } = cases.exam;

describe("grading agrees with exam.py", () => {
  test(`${sheets.length} sheets: score, pass, percent and every question's verdict`, () => {
    assert.ok(sheets.length > 200);
    for (const s of sheets) {
      const g = grade(examData, s.answers);
      const got = [g.score, g.passed, g.percent, examData.questions.map((q) => g.correct[q.id])];
      assert.deepEqual(got, [s.score, s.passed, s.percent, s.correct], JSON.stringify(s.answers));
    }
  });
  test("the pass mark comes from the data: one answer fewer than the pass count does not pass", () => {
    const n = examData.questions.length, need = Math.ceil(examData.pass_mark * n / 100);
    const sheet = (k) => Object.fromEntries(examData.questions.slice(0, k).map((q) => [q.id, q.kind === "numeric" ? String(q.answer) : q.answer]));
    assert.equal(grade(examData, sheet(need)).passed, true);
    assert.equal(grade(examData, sheet(need - 1)).passed, false);
  });
  test(`${numbers.length} typed numbers read as parse_number reads them`, () => {
    for (const [text, want] of numbers) assert.equal(parseNumber(text), want, JSON.stringify(text));
  });
  test("option labels join as _join_labels joins them", () => {
    for (const [ls, want] of labels) assert.equal(joinLabels(ls), want, JSON.stringify(ls));
  });
  test("an answer to a question the data does not have, or inherited names, count for nothing", () => {
    const g = grade(examData, { constructor: "a", toString: "b", __proto__: null });
    assert.equal(g.score, 0);
    assert.throws(() => isCorrect({ kind: "essay" }, "x", 0), /unknown question kind essay/);
  });
});

describe("saved progress", () => {
  const [q1, q2] = Object.keys(form.questions);
  const choice = Object.keys(form.questions).find((id) => form.questions[id].kind === "single");
  const multi = Object.keys(form.questions).find((id) => form.questions[id].kind === "multiple");
  const numeric = Object.keys(form.questions).find((id) => form.questions[id].kind === "numeric");
  const opt = (id) => form.questions[id].options[0];
  const good = { version: form.version, answers: { [choice]: opt(choice), [multi]: [opt(multi)], [numeric]: "0,5" },
                 edited: { [choice]: 10, [multi]: 11, [numeric]: 12 }, gradedAt: 0 };
  const read = (v) => readProgress(typeof v === "string" ? v : JSON.stringify(v), form);

  test("nothing saved is no progress and no problem", () => {
    assert.deepEqual(readProgress(null, form), { progress: null });
  });
  test("good progress reads back as it was", () => {
    assert.deepEqual(read(good), { progress: good });
  });
  test("progress of the first format ({answers, graded}) is still read", () => {
    const { progress } = read({ answers: good.answers, graded: true });
    assert.deepEqual(progress.answers, good.answers);
    assert.ok(isGraded(progress));
  });

  const bad = {
    "not JSON": "{answers:",
    "null": "null",
    "a list": "[]",
    "answers: null": { answers: null },
    "answers: null, new format": { ...good, answers: null },
    "answers a list": { ...good, answers: [] },
    "graded not a boolean": { answers: {}, graded: "yes" },
    "another version": { ...good, version: "000000000000" },
    "no version": { answers: {}, edited: {}, gradedAt: 0 },
    "an unknown question": { ...good, answers: { nope: "a" } },
    "__proto__ as a question": `{"version": ${JSON.stringify(form.version)}, "answers": {"__proto__": "a"}, "edited": {}, "gradedAt": 0}`,
    "constructor as a question": { ...good, answers: { constructor: "a" } },
    "a number for a typed answer": { ...good, answers: { [numeric]: 0.5 } },
    "an option the question lacks": { ...good, answers: { [choice]: "zz" } },
    "a list for one choice": { ...good, answers: { [choice]: [opt(choice)] } },
    "a string for several choices": { ...good, answers: { [multi]: opt(multi) } },
    "an option ticked twice": { ...good, answers: { [multi]: [opt(multi), opt(multi)] } },
    "edited null": { ...good, edited: null },
    "a time that is text": { ...good, edited: { [choice]: "10" } },
    "a time for an unknown question": { ...good, edited: { nope: 1 } },
    "gradedAt negative": { ...good, gradedAt: -1 },
    "gradedAt missing": { version: form.version, answers: {}, edited: {} },
  };
  for (const [name, value] of Object.entries(bad)) {
    test(`discarded: ${name}`, () => {
      const r = read(value);
      assert.equal(r.progress, undefined, name);
      assert.equal(typeof r.problem, "string");
    });
  }

  test("two tabs: the later edit of each question wins, clearing included", () => {
    const a = { ...emptyProgress(form.version), answers: { [q1]: "a-old", [q2]: "a-new" }, edited: { [q1]: 1, [q2]: 5 } };
    const b = { ...emptyProgress(form.version), answers: { [q1]: "b-new" }, edited: { [q1]: 3, [q2]: 4 } };
    assert.deepEqual(mergeProgress(a, b).answers, { [q1]: "b-new", [q2]: "a-new" });
    assert.deepEqual(mergeProgress(b, a).answers, { [q1]: "b-new", [q2]: "a-new" });
    const cleared = { ...b, answers: {}, edited: { [q1]: 9 } };
    assert.deepEqual(mergeProgress(a, cleared).answers, { [q2]: "a-new" }, "q1 was cleared after both answers");
    assert.deepEqual(mergeProgress(a, cleared).edited, { [q1]: 9, [q2]: 5 });
  });
  test("answers saved without times (first format) are kept, whichever side has them", () => {
    const old = { ...emptyProgress(form.version), answers: { [q1]: "x" } };
    const none = emptyProgress(form.version);
    assert.deepEqual(mergeProgress(none, old).answers, { [q1]: "x" });
    assert.deepEqual(mergeProgress(old, none).answers, { [q1]: "x" });
  });
  test("graded only when no answer changed after the grade", () => {
    const p = { ...emptyProgress(form.version), edited: { [q1]: 5 }, gradedAt: 7 };
    assert.ok(isGraded(p));
    assert.ok(!isGraded(mergeProgress(p, { ...emptyProgress(form.version), edited: { [q2]: 8 } })));
    assert.ok(!isGraded(emptyProgress(form.version)));
  });
});
