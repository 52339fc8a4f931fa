/* attention-workshop: the final exam, graded in the page.
 *
 * The questions are static HTML written by the build (attention_workshop.exam.form_html);
 * the answers live in generated/exam.json, fetched when the reader asks for a grade.
 * The grading rules below mirror attention_workshop.exam (parse_number, is_correct,
 * grade); tests/test_browser_exam.py proves the two agree.
 */
(function () {
  "use strict";

  // ------------------------------------------------------------------ grading (mirrors exam.py)

  // After NFKC, only these count as spaces (exam.py's _SPACES); digits are ASCII only.
  var SPACES = /[ \t\n\r\f\v]+/g;
  var THOUSANDS = /^[+-]?[1-9][0-9]{0,2}(,[0-9]{3})+(\.[0-9]+)?$/;
  var DECIMAL_COMMA = /^[+-]?[0-9]+,[0-9]+$/;
  var NUMBER = /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/;

  /** A typed number, or null: NFKC first, spaces ignored, 147,456 and 0,5 understood. */
  function parseNumber(text) {
    var s = String(text).normalize("NFKC").replace(SPACES, "");
    if (THOUSANDS.test(s)) s = s.replace(/,/g, "");
    else if (DECIMAL_COMMA.test(s)) s = s.replace(",", ".");
    if (!NUMBER.test(s)) return null;
    var x = Number(s);
    return isFinite(x) ? x : null;
  }

  /** Whether one response answers question q (an entry of exam.json). */
  function isCorrect(q, response, slack) {
    if (q.kind === "single") return typeof response === "string" && response === q.answer;
    if (q.kind === "multiple") {
      if (!Array.isArray(response)) return false;
      var want = q.answer.slice().sort(), got = Array.from(new Set(response)).sort();
      return want.length === got.length && want.every(function (k, i) { return k === got[i]; });
    }
    if (q.kind === "numeric") {
      if (typeof response !== "string") return false;
      var x = parseNumber(response);
      return x !== null && Math.abs(x - q.answer) <= q.tol + slack;
    }
    throw new Error("unknown question kind " + q.kind);
  }

  /** {score, passed, percent, correct: {id: bool}} for answers {id: response}. */
  function grade(data, answers) {
    var correct = {}, score = 0, n = data.questions.length;
    data.questions.forEach(function (q) {
      var ok = Object.prototype.hasOwnProperty.call(answers, q.id) && isCorrect(q, answers[q.id], data.slack);
      correct[q.id] = ok;
      if (ok) score += 1;
    });
    return { score: score, n: n, passed: 100 * score >= data.pass_mark * n,
             percent: (100 * score / n).toFixed(1), correct: correct };
  }

  /** Option labels as one line (exam.py's _join_labels): sentences follow each other, short labels take "; ". */
  function joinLabels(labels) {
    var sentences = labels.length > 0 && labels.every(function (l) { return /[.?!]$/.test(l); });
    return labels.join(sentences ? " " : "; ");
  }

  window.attentionExam = { parseNumber: parseNumber, isCorrect: isCorrect, grade: grade, joinLabels: joinLabels };

  // ------------------------------------------------------------------ the page

  var form = document.getElementById("exam-form");
  if (!form) return;
  var fieldsets = Array.prototype.slice.call(form.querySelectorAll("fieldset.exam-q"));
  var status = form.querySelector(".exam-status");
  var result = form.querySelector(".exam-result");
  var resultTitle = form.querySelector("#exam-result-title");
  var scoreLine = form.querySelector(".exam-score");
  var review = form.querySelector(".exam-review");
  var storagePrefix = "attention-workshop/final-exam/";
  var storageKey = storagePrefix + form.getAttribute("data-version");
  var dataUrl = form.querySelector("a.exam-data").href;
  var dataPromise = null;

  function loadData() {
    if (!dataPromise) {
      dataPromise = fetch(dataUrl).then(function (r) {
        if (!r.ok) throw new Error("could not load the answers (" + r.status + ")");
        return r.json();
      });
      dataPromise.catch(function () { dataPromise = null; });
    }
    return dataPromise;
  }

  function inputsOf(fs) { return Array.prototype.slice.call(fs.querySelectorAll("input")); }

  /** The reader's answers as exam.py's grade() takes them: {id: key | [keys] | text}. */
  function collect() {
    var answers = {};
    fieldsets.forEach(function (fs) {
      var id = fs.getAttribute("data-qid"), kind = fs.getAttribute("data-kind"), inputs = inputsOf(fs);
      if (kind === "numeric") {
        if (inputs[0].value.trim() !== "") answers[id] = inputs[0].value;
      } else if (kind === "single") {
        var on = inputs.filter(function (i) { return i.checked; });
        if (on.length) answers[id] = on[0].value;
      } else {
        answers[id] = inputs.filter(function (i) { return i.checked; }).map(function (i) { return i.value; });
        if (!answers[id].length) delete answers[id];
      }
    });
    return answers;
  }

  function fill(answers) {
    fieldsets.forEach(function (fs) {
      var id = fs.getAttribute("data-qid"), kind = fs.getAttribute("data-kind"), a = answers[id];
      inputsOf(fs).forEach(function (i) {
        if (kind === "numeric") i.value = typeof a === "string" ? a : "";
        else if (kind === "single") i.checked = a === i.value;
        else i.checked = Array.isArray(a) && a.indexOf(i.value) >= 0;
      });
    });
  }

  function save(graded) {
    try {
      localStorage.setItem(storageKey, JSON.stringify({ answers: collect(), graded: !!graded }));
    } catch (e) { /* storage may be off (private mode): the exam still works, without memory */ }
  }

  function restore() {
    try {
      var saved = JSON.parse(localStorage.getItem(storageKey) || "null");
      return saved && typeof saved.answers === "object" ? saved : null;
    } catch (e) { return null; }
  }

  /** Saved progress of an earlier version of the exam (another answers hash) can never come back: drop it. */
  function forgetStale() {
    try {
      var stale = [];
      for (var i = 0; i < localStorage.length; i++) {
        var k = localStorage.key(i);
        if (k && k.indexOf(storagePrefix) === 0 && k !== storageKey) stale.push(k);
      }
      stale.forEach(function (k) { localStorage.removeItem(k); });
    } catch (e) { /* storage may be off: nothing to tidy */ }
  }

  function forget() {
    try { localStorage.removeItem(storageKey); } catch (e) { /* nothing to forget */ }
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function yourAnswer(fs, response) {
    if (response === undefined) return "no answer";
    if (fs.getAttribute("data-kind") === "numeric") return response.trim();
    var keys = Array.isArray(response) ? response : [response];
    return joinLabels(inputsOf(fs).filter(function (i) { return keys.indexOf(i.value) >= 0; })
      .map(function (i) { return i.parentNode.textContent.trim(); }));
  }

  function render(data, answers, g) {
    var verdict = g.passed ? "PASS" : "NOT YET";
    scoreLine.textContent = "";
    scoreLine.appendChild(el("span", "exam-points", g.score + "/" + g.n));
    scoreLine.appendChild(document.createTextNode(" correct, " + g.percent + "% (pass mark " + data.pass_mark + "%): "));
    scoreLine.appendChild(el("strong", "exam-verdict " + (g.passed ? "exam-pass" : "exam-notyet"), verdict));
    review.textContent = "";
    data.questions.forEach(function (q, idx) {
      var fs = form.querySelector('fieldset[data-qid="' + q.id + '"]');
      var ok = g.correct[q.id];
      var li = el("li", "exam-item " + (ok ? "exam-right" : "exam-wrong"));
      var head = el("p", "exam-item-head");
      head.appendChild(el("strong", "exam-mark", ok ? "✓ Correct" : "✗ Not correct"));
      head.appendChild(document.createTextNode(" — "));
      var jump = el("a", null, "Question " + (idx + 1));
      jump.href = "#" + fs.id;
      head.appendChild(jump);
      li.appendChild(head);
      li.appendChild(el("p", null, "Your answer: " + yourAnswer(fs, answers[q.id])));
      li.appendChild(el("p", null, "Answer: " + q.answer_text));
      li.appendChild(el("p", "exam-explanation", q.explanation));
      var learn = fs.querySelector("a.exam-learn");
      var p = el("p", "exam-where", "Where this is taught: ");
      var a = el("a", null, learn.textContent);
      a.href = learn.href;
      p.appendChild(a);
      li.appendChild(p);
      review.appendChild(li);
      fs.setAttribute("data-result", ok ? "right" : "wrong");
    });
    result.hidden = false;
    status.textContent = "Your score: " + g.score + " out of " + g.n + ", " + g.percent + "%. " + verdict + ".";
  }

  function clearResult() {
    result.hidden = true;
    review.textContent = "";
    scoreLine.textContent = "";
    fieldsets.forEach(function (fs) { fs.removeAttribute("data-result"); });
  }

  function gradeNow(moveFocus) {
    var answers = collect();
    return loadData().then(function (data) {
      var g = grade(data, answers);
      render(data, answers, g);
      save(true);
      if (moveFocus) resultTitle.focus();
      return g;
    }).catch(function (err) {
      status.textContent = "The exam could not be graded: " + err.message + ". Please reload the page.";
      throw err;
    });
  }

  function reset(message) {
    forget();
    fill({});
    clearResult();
    status.textContent = message;
    var first = form.querySelector("input");
    first.focus();
  }

  // Only the Grade button grades. The form has no submit button, and should a browser submit it
  // anyway (Enter in an answer box), nothing happens: no reload, no grade.
  form.addEventListener("submit", function (ev) { ev.preventDefault(); });
  form.querySelector(".exam-grade").addEventListener("click", function () {
    gradeNow(true).catch(function () { /* reported in the status line */ });
  });
  function edited() {
    if (!result.hidden) {
      clearResult();
      status.textContent = "You changed an answer: grade again to see your new score.";
    }
    save(false);
  }
  form.addEventListener("input", edited);
  form.addEventListener("change", edited);
  form.querySelector(".exam-clear").addEventListener("click", function () {
    reset("Your answers are cleared, here and in this browser's storage.");
  });
  form.querySelector(".exam-retake").addEventListener("click", function () {
    reset("A fresh start: every answer is cleared.");
  });

  forgetStale();
  var saved = restore();
  if (saved) {
    fill(saved.answers);
    if (saved.graded) gradeNow(false).catch(function () { /* reported in the status line */ });
    else status.textContent = "Your saved answers are back.";
  }
  form.setAttribute("data-ready", "true");
})();
