/* attention-workshop: the final exam, graded in the page (the page's DOM).
 *
 * An ES module. The questions are static HTML written by the build (attention_workshop.exam.form_html);
 * the answers live in generated/exam.json, fetched when the reader asks for a grade. The rules
 * (grading, reading and merging saved progress) are in grading.js; this file reads the form,
 * shows the result, and keeps the reader's progress in localStorage: restored on a reload,
 * discarded with a notice when it cannot be read, and merged with any other open tab's.
 */
import { emptyProgress, grade, isGraded, labelSeparator, mergeProgress, readProgress } from "./grading.js";

const STORAGE_PREFIX = "attention-workshop/final-exam/";
// The elements of exam.json's HTML texts (exam_page.typeset): any other is shown as its text.
const TYPESET = new Set(["var", "sub", "sup", "code"]);

/** Nodes of an HTML text of exam.json, as the questions show their notation (d with a subscript k). */
function typeset(html) {
  const parsed = document.createElement("template");
  parsed.innerHTML = html;
  const copy = (node) => {
    if (node.nodeType !== Node.ELEMENT_NODE || !TYPESET.has(node.localName)) {
      return document.createTextNode(node.textContent);
    }
    const e = document.createElement(node.localName);
    e.append(...[...node.childNodes].map(copy));
    return e;
  };
  return [...parsed.content.childNodes].map(copy);
}

class ExamPage {
  constructor(form) {
    this.form = form;
    this.fieldsets = [...form.querySelectorAll("fieldset.exam-q")];
    this.status = form.querySelector(".exam-status");
    this.result = form.querySelector(".exam-result");
    this.resultTitle = form.querySelector("#exam-result-title");
    this.scoreLine = form.querySelector(".exam-score");
    this.review = form.querySelector(".exam-review");
    this.dataUrl = form.querySelector("a.exam-data").href;
    this.dataPromise = null;
    // The form as the saved-progress rules need it: its version and each question's kind and option keys.
    this.exam = { version: form.dataset.version, questions: {} };
    for (const fs of this.fieldsets) {
      this.exam.questions[fs.dataset.qid] = { kind: fs.dataset.kind, options: this.inputsOf(fs).map((i) => i.value) };
    }
    this.storageKey = STORAGE_PREFIX + this.exam.version;
    this.progress = emptyProgress(this.exam.version);
    this.lastTime = 0;
  }

  /** A time for an edit or a grade: the clock, but always later than this tab's previous one. */
  now() { this.lastTime = Math.max(Date.now(), this.lastTime + 1); return this.lastTime; }

  loadData() {
    if (!this.dataPromise) {
      this.dataPromise = fetch(this.dataUrl).then((r) => {
        if (!r.ok) throw new Error(`could not load the answers (${r.status})`);
        return r.json();
      });
      this.dataPromise.catch(() => { this.dataPromise = null; });
    }
    return this.dataPromise;
  }

  // ---------------------------------------------------------------- the form's answers

  inputsOf(fs) { return [...fs.querySelectorAll("input")]; }

  /** One question's answer as grade() takes it (an option key, a list of keys, the typed text), or undefined. */
  responseOf(fs) {
    const inputs = this.inputsOf(fs), on = inputs.filter((i) => i.checked).map((i) => i.value);
    switch (fs.dataset.kind) {
      case "numeric": return inputs[0].value.trim() !== "" ? inputs[0].value : undefined;
      case "single": return on[0];
      default: return on.length ? on : undefined;
    }
  }

  /** The reader's answers: {id: response}. */
  collect() {
    const answers = {};
    for (const fs of this.fieldsets) {
      const r = this.responseOf(fs);
      if (r !== undefined) answers[fs.dataset.qid] = r;
    }
    return answers;
  }

  /** Show `answers` in the form, touching only the questions whose answer differs (a box being typed in stays). */
  show(answers) {
    for (const fs of this.fieldsets) {
      const a = answers[fs.dataset.qid];
      if (JSON.stringify(this.responseOf(fs)) === JSON.stringify(a)) continue;
      for (const i of this.inputsOf(fs)) {
        if (fs.dataset.kind === "numeric") i.value = typeof a === "string" ? a : "";
        else if (fs.dataset.kind === "single") i.checked = a === i.value;
        else i.checked = Array.isArray(a) && a.includes(i.value);
      }
    }
  }

  // ---------------------------------------------------------------- local storage (which may be off: then no memory)

  stored() {
    try { return readProgress(localStorage.getItem(this.storageKey), this.exam); } catch { return { progress: null }; }
  }

  /** Write this tab's progress, merged first with what another tab may have stored meanwhile. */
  save() {
    const { progress: theirs } = this.stored();
    if (theirs) {
      this.progress = mergeProgress(this.progress, theirs);
      this.show(this.progress.answers);
    }
    try { localStorage.setItem(this.storageKey, JSON.stringify(this.progress)); } catch { /* storage off: no memory */ }
  }

  forget() {
    try { localStorage.removeItem(this.storageKey); } catch { /* nothing to forget */ }
  }

  /** Saved progress of an earlier version of the exam (another answers hash) can never come back: drop it. */
  forgetStale() {
    try {
      const stale = [];
      for (let i = 0; i < localStorage.length; i++) {
        const k = localStorage.key(i);
        if (k && k.startsWith(STORAGE_PREFIX) && k !== this.storageKey) stale.push(k);
      }
      stale.forEach((k) => localStorage.removeItem(k));
    } catch { /* storage off: nothing to tidy */ }
  }

  /** Another tab wrote (or cleared) the progress: take its newer answers. */
  onStorage(e) {
    if (e.key !== null && e.key !== this.storageKey) return;
    if (e.newValue === null || e.key === null) { // cleared in another tab
      this.progress = emptyProgress(this.exam.version);
      this.show({});
      this.clearResult();
      this.status.textContent = "Your answers were cleared in another tab.";
      return;
    }
    const { progress: theirs } = readProgress(e.newValue, this.exam);
    if (!theirs) return;
    const before = JSON.stringify(this.progress.answers);
    this.progress = mergeProgress(this.progress, theirs);
    this.show(this.progress.answers);
    if (JSON.stringify(this.progress.answers) !== before && !this.result.hidden) {
      this.clearResult();
      this.status.textContent = "An answer changed in another tab: grade again to see your new score.";
    }
  }

  // ---------------------------------------------------------------- the result

  /** The reader's answer as nodes: the labels picked, their notation as the form shows it. */
  yourAnswer(fs, response) {
    if (response === undefined) return ["no answer"];
    if (fs.dataset.kind === "numeric") return [response.trim()];
    const keys = Array.isArray(response) ? response : [response];
    const labels = this.inputsOf(fs).filter((i) => keys.includes(i.value)).map((i) => i.parentNode.querySelector("span"));
    const sep = labelSeparator(labels.map((l) => l.textContent.trim()));
    return labels.flatMap((l, n) => [...(n ? [sep] : []), ...l.cloneNode(true).childNodes]);
  }

  render(data, answers, g) {
    const el = (tag, cls, text) => {
      const e = document.createElement(tag);
      if (cls) e.className = cls;
      if (text !== undefined) e.textContent = text;
      return e;
    };
    const verdict = g.passed ? "PASS" : "NOT YET";
    this.scoreLine.replaceChildren(el("span", "exam-points", `${g.score}/${g.n}`),
      ` correct, ${g.percent}% (pass mark ${data.pass_mark}%): `,
      el("strong", `exam-verdict ${g.passed ? "exam-pass" : "exam-notyet"}`, verdict));
    this.review.replaceChildren(...data.questions.map((q, idx) => {
      const fs = this.form.querySelector(`fieldset[data-qid="${q.id}"]`), ok = g.correct[q.id];
      const head = el("p", "exam-item-head");
      const jump = el("a", null, `Question ${idx + 1}`);
      jump.href = `#${fs.id}`;
      head.append(el("strong", "exam-mark", ok ? "✓ Correct" : "✗ Not correct"), " — ", jump);
      const learn = fs.querySelector("a.exam-learn");
      const where = el("p", "exam-where", "Where this is taught: ");
      const a = el("a");
      a.append(...learn.cloneNode(true).childNodes);
      a.href = learn.href;
      where.append(a);
      fs.setAttribute("data-result", ok ? "right" : "wrong");
      const li = el("li", `exam-item ${ok ? "exam-right" : "exam-wrong"}`);
      const yours = el("p", null, "Your answer: "), answer = el("p", null, "Answer: ");
      yours.append(...this.yourAnswer(fs, answers[q.id]));
      answer.append(...typeset(q.answer_html));
      const why = el("p", "exam-explanation");
      why.append(...typeset(q.explanation_html));
      li.append(head, yours, answer, why, where);
      return li;
    }));
    this.result.hidden = false;
    this.status.classList.add("exam-said");  // the result shows the score; the live region only says it
    this.status.textContent = `Your score: ${g.score} out of ${g.n}, ${g.percent}%. ${verdict}.`;
  }

  clearResult() {
    this.result.hidden = true;
    this.status.classList.remove("exam-said");
    this.review.replaceChildren();
    this.scoreLine.replaceChildren();
    this.fieldsets.forEach((fs) => fs.removeAttribute("data-result"));
  }

  async gradeNow(moveFocus) {
    const answers = this.collect();
    try {
      const data = await this.loadData();
      const g = grade(data, answers);
      this.render(data, answers, g);
      this.progress.gradedAt = this.now();
      this.save();
      if (moveFocus) this.resultTitle.focus();
      return g;
    } catch (err) {
      this.status.classList.remove("exam-said");
      this.status.textContent = `The exam could not be graded: ${err.message}. Please reload the page.`;
      return null;
    }
  }

  // ---------------------------------------------------------------- events

  edited(e) {
    const fs = e.target.closest?.("fieldset.exam-q");
    if (!fs) return;
    if (!this.result.hidden) {
      this.clearResult();
      this.status.textContent = "You changed an answer: grade again to see your new score.";
    }
    const id = fs.dataset.qid, r = this.responseOf(fs);
    if (r === undefined) delete this.progress.answers[id]; else this.progress.answers[id] = r;
    this.progress.edited[id] = this.now();
    this.save();
  }

  reset(message) {
    this.forget();
    this.progress = emptyProgress(this.exam.version);
    this.show({});
    this.clearResult();
    this.status.textContent = message;
    this.form.querySelector("input").focus();
  }

  start() {
    const { form } = this;
    // Only the Grade button grades. The form has no submit button, and should a browser submit it
    // anyway (Enter in an answer box), nothing happens: no reload, no grade.
    form.addEventListener("submit", (e) => e.preventDefault());
    form.querySelector(".exam-grade").addEventListener("click", () => this.gradeNow(true));
    form.addEventListener("input", (e) => this.edited(e));
    form.addEventListener("change", (e) => this.edited(e));
    form.querySelector(".exam-clear").addEventListener("click", () => this.reset("Your answers are cleared, here and in this browser's storage."));
    form.querySelector(".exam-retake").addEventListener("click", () => this.reset("A fresh start: every answer is cleared."));
    window.addEventListener("storage", (e) => this.onStorage(e));
    // The buttons are hidden in the page's HTML, so a reader without JavaScript never sees one that does nothing.
    form.querySelector(".exam-actions").hidden = false;

    this.forgetStale();
    const { progress, problem } = this.stored();
    if (problem) {
      this.forget();
      this.status.textContent = "Answers saved on an earlier visit could not be read, so the exam starts empty. Sorry about that.";
    } else if (progress) {
      this.progress = progress;
      this.show(progress.answers);
      if (isGraded(progress)) this.gradeNow(false);
      else if (Object.keys(progress.answers).length) this.status.textContent = "Your saved answers are back.";
    }
    form.dataset.ready = "true";
  }
}

const form = document.getElementById("exam-form");
if (form) new ExamPage(form).start();
