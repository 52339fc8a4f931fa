/* Inside the model: the interactive explorer of one causal attention block.
 *
 * Plain JavaScript, no library. All sizes, costs, code lines and the toy weights come
 * from generated/inside-the-model.json (written by attention_workshop.inside at build
 * time). The only thing computed here is the live edit: the same steps as
 * attention_workshop.inside.compute, in float64, which a browser test compares with
 * the package to 1e-9. window.insideModel exposes the state for that test.
 */
(function () {
  "use strict";

  var root = document.getElementById("inside-explorer");
  if (!root) return;

  var FILL = ["river", "at", "the", "shore", "money", "bank", "a", "fish"];
  var STEP_MIN = 1, STEP_MAX = 7;
  var data = null;
  var S = { scale: "toy", step: 1, head: 0, row: 0, words: [], nudge: [], r: null };
  var el = {};

  // ------------------------------------------------------------------ maths (mirrors inside.compute)

  function matmulBias(A, W, b) { // (T, n) x (n, m) + (m,) -> (T, m)
    var out = [], i, j, k, s;
    for (i = 0; i < A.length; i++) {
      var row = [];
      for (j = 0; j < W[0].length; j++) {
        s = 0;
        for (k = 0; k < W.length; k++) s += A[i][k] * W[k][j];
        row.push(s + b[j]);
      }
      out.push(row);
    }
    return out;
  }

  function softmaxRow(row) { // as attention_workshop.core.softmax: subtract the max, exp, normalise
    var m = -Infinity, i, e = [], sum = 0;
    for (i = 0; i < row.length; i++) if (row[i] > m) m = row[i];
    for (i = 0; i < row.length; i++) { e.push(Math.exp(row[i] - m)); }
    for (i = 0; i < e.length; i++) sum += e[i];
    return e.map(function (v) { return v / sum; });
  }

  function inputs(words, nudge) { // (T, 8): 4 toy axes, 4 position numbers, plus the nudge
    return words.map(function (w, i) {
      var base = data.toy.vocab[w].concat(data.toy.positions[i]);
      return base.map(function (v, j) { return v + nudge[i][j]; });
    });
  }

  function compute(words, nudge) {
    var t = data.toy, W = t.weights, C = t.n_embd, nh = t.n_head, hs = t.head_size;
    var T = words.length, h, i, j, d, s;
    var x = inputs(words, nudge);
    var qkv = matmulBias(x, W.c_attn_weight, W.c_attn_bias); // (T, 3C)
    function part(offset) { // (nh, T, hs)
      var out = [];
      for (h = 0; h < nh; h++) {
        out.push(qkv.map(function (row) { return row.slice(offset + h * hs, offset + (h + 1) * hs); }));
      }
      return out;
    }
    var q = part(0), k = part(C), v = part(2 * C);
    var scores = [], scaled = [], masked = [], weights = [], heads = [];
    var root_hs = Math.sqrt(hs);
    for (h = 0; h < nh; h++) {
      var sc = [], sd = [], mk = [], wt = [], hd = [];
      for (i = 0; i < T; i++) {
        var r1 = [], r2 = [], r3 = [];
        for (j = 0; j < T; j++) {
          s = 0;
          for (d = 0; d < hs; d++) s += q[h][i][d] * k[h][j][d];
          r1.push(s); r2.push(s / root_hs); r3.push(j > i ? -Infinity : s / root_hs);
        }
        sc.push(r1); sd.push(r2); mk.push(r3);
        var w = softmaxRow(r3);
        wt.push(w);
        var o = [];
        for (d = 0; d < hs; d++) {
          s = 0;
          for (j = 0; j < T; j++) s += w[j] * v[h][j][d];
          o.push(s);
        }
        hd.push(o);
      }
      scores.push(sc); scaled.push(sd); masked.push(mk); weights.push(wt); heads.push(hd);
    }
    var concat = [];
    for (i = 0; i < T; i++) {
      var row = [];
      for (h = 0; h < nh; h++) row = row.concat(heads[h][i]);
      concat.push(row);
    }
    var y = matmulBias(concat, W.c_proj_weight, W.c_proj_bias);
    return { x: x, qkv: qkv, q: q, k: k, v: v, scores: scores, scaled: scaled, masked: masked,
             weights: weights, heads: heads, concat: concat, y: y };
  }

  // ------------------------------------------------------------------ small DOM helpers

  function h(tag, attrs, children) {
    var n = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (a) {
      if (a === "text") n.textContent = attrs[a];
      else if (a === "class") n.className = attrs[a];
      else if (a.slice(0, 2) === "on") n.addEventListener(a.slice(2), attrs[a]);
      else n.setAttribute(a, attrs[a]);
    });
    (children || []).forEach(function (c) {
      if (c == null) return;
      n.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return n;
  }

  function fmt(v, nd) {
    if (v === -Infinity) return "−∞";
    var s = v.toFixed(nd === undefined ? 2 : nd);
    if (/^-0\.0*$/.test(s)) s = s.slice(1);
    return s.replace("-", "−");
  }

  function cell(v, extra) {
    var td = h("td", { "class": "ins-cell " + (v === -Infinity ? "ins-masked" : v >= 0 ? "ins-pos" : "ins-neg") + (extra || ""),
                       "data-v": v === -Infinity ? "-inf" : String(v) }, [fmt(v)]);
    if (v !== -Infinity) td.style.setProperty("--a", Math.min(Math.abs(v), 1).toFixed(2));
    return td;
  }

  // A re-render puts new rows under a still pointer, and the browser then reports it entering them:
  // only a pointer that really moved since the last render picks a row by hover.
  var pointerAtRender = null;
  function pointerMoved(e) { return !pointerAtRender || e.clientX !== pointerAtRender[0] || e.clientY !== pointerAtRender[1]; }
  var pointerNow = null;
  document.addEventListener("mousemove", function (e) { pointerNow = [e.clientX, e.clientY]; }, { passive: true });

  // Counts of 1,000 or more get thousands separators; shapes keep plain digits (as inside.py prints them).
  function count(n) { return n.toLocaleString("en"); }
  function plural(n, word) { return count(n) + " " + (n === 1 ? word : word + "s"); }

  function labels() { return S.words.map(function (w, i) { return (i + 1) + " " + w; }); }

  // A matrix as a grid of coloured cells with values; rows are buttons that pick the row.
  function grid(M, cols, caption, name) {
    var L = labels();
    var head = h("tr", null, [h("th", null, [])].concat(cols.map(function (c) { return h("th", { scope: "col", text: c }); })));
    var body = M.map(function (row, i) {
      var btn = h("button", { type: "button", "class": "ins-rowbtn", "data-row": String(i), "data-fkey": "row-" + name + "-" + i,
                              "aria-pressed": String(i === S.row), "aria-label": "row " + L[i] + ": show its breakdown",
                              onclick: function () { setRow(i); } }, [L[i]]);
      var tr = h("tr", { "class": i === S.row ? "ins-selected" : "", "data-row": String(i),
                         onmouseenter: function (e) { if (pointerMoved(e)) setRow(i); } },
                 [h("th", { scope: "row" }, [btn])].concat(row.map(function (v) { return cell(v); })));
      return tr;
    });
    // A grid wider than the screen scrolls sideways: the keyboard can reach it (tabindex) and it has a name.
    return h("div", { "class": "ins-matrix", tabindex: "0", role: "region", "aria-label": "table: " + caption, "data-fkey": "grid-" + name }, [
      h("table", { "class": "ins-grid", "data-name": name }, [h("caption", { text: caption }), h("thead", null, [head]), h("tbody", null, body)])
    ]);
  }

  // ------------------------------------------------------------------ rendering

  function costs() { return S.scale === "toy" ? data.toy.costs[String(S.words.length)] : data.gpt2.costs; }
  function code() { return S.scale === "toy" ? data.toy.code[String(S.words.length)] : data.gpt2.code; }

  function renderNav() {
    el.stepButtons.forEach(function (b, n) {
      var on = n + 1 === S.step;
      b.setAttribute("aria-current", on ? "step" : "false");
      b.classList.toggle("ins-on", on);
    });
    el.prev.disabled = S.step === STEP_MIN;
    el.next.disabled = S.step === STEP_MAX;
    var toy = S.scale === "toy";
    el.scaleButtons.forEach(function (b) { b.setAttribute("aria-pressed", String(b.dataset.scale === S.scale)); });
    // At GPT-2 scale only shapes and costs are shown: the head, the tokens and the input change nothing there.
    el.headButtons.forEach(function (b) {
      b.setAttribute("aria-pressed", String(toy && Number(b.dataset.head) === S.head));
      b.disabled = !toy;
    });
    el.tokens.textContent = toy ? count(S.words.length) : count(data.gpt2.n_ctx);
    el.fewer.disabled = !toy || S.words.length <= 1;
    el.more.disabled = !toy || S.words.length >= data.toy.max_tokens;
    el.toyNote.hidden = toy;
    el.input.hidden = !toy;
    root.dataset.scale = S.scale;
  }

  function explanation(id) {
    var heading = document.getElementById(id), out = [];
    for (var n = heading && heading.nextElementSibling; n && n.tagName === "P"; n = n.nextElementSibling) {
      out.push(n.cloneNode(true));
    }
    return out;
  }

  function stepGrids() {
    var r = S.r, hd = S.head, hn = "head " + (hd + 1), t = data.toy, L = labels();
    var qk = []; for (var d = 0; d < t.head_size; d++) qk.push(String(d + 1));
    var all = []; for (var j = 0; j < t.n_embd; j++) all.push(String(j + 1));
    var cat = all.map(function (_, j) { return "h" + (1 + Math.floor(j / t.head_size)) + "·" + (1 + j % t.head_size); });
    switch (S.step) {
      case 1: return [grid(r.x, t.features, "x: the input, one row per token", "x"), grid(r.q[hd], qk, "Q (" + hn + ")", "q"),
                      grid(r.k[hd], qk, "K (" + hn + ")", "k"), grid(r.v[hd], qk, "V (" + hn + ")", "v")];
      case 2: return [grid(r.scores[hd], L, "Q·Kᵀ (" + hn + ")", "scores")];
      case 3: return [grid(r.scaled[hd], L, "Q·Kᵀ / √" + t.head_size + " (" + hn + ")", "scaled")];
      case 4: return [grid(r.masked[hd], L, "masked scores (" + hn + ")", "masked")];
      case 5: return [grid(r.weights[hd], L, "attention weights A (" + hn + "); every row sums to 1", "weights")];
      case 6: return [grid(r.heads[hd], qk, "A·V (" + hn + "): this head's output", "heads")];
      default: return [grid(r.concat, cat, "both heads side by side", "concat"), grid(r.y, all, "y = concat · W_O + b", "y")];
    }
  }

  function gpt2Box() {
    var g = data.gpt2;
    return h("div", { "class": "ins-gpt2" }, [
      h("p", null, ["GPT-2 small: ", h("strong", { text: g.n_embd + " " }), "numbers per token, ", h("strong", { text: g.n_head + " " }),
                    "heads of ", h("strong", { text: g.head_size + "" }), ", c_attn ", h("strong", { text: g.c_attn[0] + " × " + g.c_attn[1] }),
                    ", c_proj " + g.c_proj[0] + " × " + g.c_proj[1] + "."]),
      h("p", { text: "Shown at its full context of " + plural(g.n_ctx, "token") + ". Its numbers are too many to draw: switch to toy scale to see them." })
    ]);
  }

  function growthLine() {
    var G = data.growth, T = S.words.length, cells = G[T - 1].cells;
    var parts = [h("span", { text: plural(T, "token") + ": " + plural(cells, "score cell") + " per head. " })];
    if (2 * T <= G.length) {
      var c2 = G[2 * T - 1].cells;
      parts.push(h("span", { text: "Double to " + plural(2 * T, "token") + ": " + plural(c2, "cell") + ", ×" + (c2 / cells) + "." }));
    } else if (T % 2 === 0) {
      var c1 = G[T / 2 - 1].cells;
      parts.push(h("span", { text: "Half as many (" + plural(T / 2, "token") + "): " + plural(c1, "cell") + ", so doubling gave ×" + (cells / c1) + "." }));
    }
    return h("p", { "class": "ins-growth" }, parts);
  }

  function renderStage() {
    var step = data.steps[S.step - 1], c = costs()[S.step - 1];
    el.title.textContent = "Step " + S.step + " of 7: " + step.title;
    el.text.replaceChildren.apply(el.text, explanation(step.id));
    var scaleName = S.scale === "toy" ? "toy, " + plural(S.words.length, "token") : "GPT-2, " + plural(data.gpt2.n_ctx, "token");
    el.op.replaceChildren(
      h("span", { "class": "ins-tag", text: scaleName }), " ", h("code", { text: c.op }), " · ",
      h("strong", { text: c.cost }), c.per_token ? " · " + c.per_token : "",
      c.note ? h("span", { "class": "ins-note", text: " (" + c.note + ")" }) : null
    );
    var kids = S.scale === "toy" ? stepGrids() : [gpt2Box()];
    if (S.step === 2 && S.scale === "toy") kids.push(growthLine());
    el.grids.replaceChildren.apply(el.grids, kids);
  }

  function renderRow() {
    var i = Math.min(S.row, S.words.length - 1);
    if (S.scale !== "toy") {
      el.rowPanel.replaceChildren(h("h4", { text: "Row breakdown" }), h("p", { text: "Switch to toy scale to see one token's scores, weights and blend with real numbers." }));
      return;
    }
    var r = S.r, hd = S.head, L = labels();
    var rows = [], total = 0;
    for (var j = 0; j < S.words.length; j++) {
      total += r.weights[hd][i][j];
      var w = r.weights[hd][i][j];
      var term = r.v[hd][j].map(function (x) { return w * x; });
      rows.push(h("tr", { "class": j > i ? "ins-future" : "" }, [
        h("th", { scope: "row", text: L[j] }), cell(r.masked[hd][i][j]), cell(w),
        h("td", { "class": "ins-vec", text: j > i ? "hidden (future)" : "[" + term.map(function (x) { return fmt(x, 3); }).join(", ") + "]" })
      ]));
    }
    rows.push(h("tr", { "class": "ins-sum" }, [h("th", { scope: "row", text: "sum" }), h("td"), h("td", { "class": "ins-total", "data-v": String(total), text: fmt(total) }),
      h("td", { "class": "ins-vec ins-out", text: "[" + r.heads[hd][i].map(function (x) { return fmt(x, 3); }).join(", ") + "]" })]));
    el.rowPanel.replaceChildren(
      h("h4", { text: "Row breakdown: " + L[i] + " (head " + (hd + 1) + ")" }),
      h("p", { text: "Its scaled, masked scores; the weights softmax makes of them; and each visible token's value row times its weight. The sum of those rows is this token's output from the head." }),
      h("div", { "class": "ins-matrix", tabindex: "0", role: "region", "aria-label": "table: row breakdown of " + L[i], "data-fkey": "breakdown" }, [h("table", { "class": "ins-breakdown" }, [
        h("thead", null, [h("tr", null, [h("th", { text: "looks at" }), h("th", { text: "score" }), h("th", { text: "weight" }), h("th", { text: "weight × value row" })])]),
        h("tbody", null, rows)
      ])])
    );
  }

  function renderCode() {
    var lines = code();
    el.code.replaceChildren.apply(el.code, lines.map(function (ln) {
      var on = ln.steps.indexOf(S.step) >= 0;
      return h("span", { "class": "ins-line" + (on ? " ins-current" : ""), "data-steps": ln.steps.join(" ") }, [
        h("span", { "class": "ins-mark", "aria-hidden": "true", text: on ? "▶ " : "  " }),
        ln.code, ln.shape ? h("span", { "class": "ins-shape", text: "  # " + ln.shape }) : null, "\n"
      ]);
    }));
    el.codeNote.textContent = "Shapes at " + (S.scale === "toy" ? "toy scale, T = " + S.words.length : "GPT-2 scale, T = " + data.gpt2.n_ctx) +
      "; the highlighted line (▶) does step " + S.step + ".";
  }

  function renderInput() {
    var vocab = Object.keys(data.toy.vocab);
    var labelsNow = el.words.querySelectorAll(".ins-word");
    if (labelsNow.length === S.words.length) { // same tokens: keep the elements (and the focus), update them
      labelsNow.forEach(function (lab, i) {
        lab.className = "ins-word" + (i === S.row ? " ins-selected" : "");
        var sel = lab.querySelector("select");
        if (sel.value !== S.words[i]) sel.value = S.words[i];
      });
    } else {
      el.words.replaceChildren.apply(el.words, S.words.map(function (w, i) {
        var sel = h("select", { "aria-label": "word of token " + (i + 1), "data-token": String(i), "data-fkey": "word-" + i,
                                onchange: function (e) { setWord(i, e.target.value); } },
                    vocab.map(function (v) { var o = h("option", { value: v, text: v }); if (v === w) o.selected = true; return o; }));
        return h("label", { "class": "ins-word" + (i === S.row ? " ins-selected" : "") }, [h("span", { text: "token " + (i + 1) }), sel]);
      }));
    }
    var i = Math.min(S.row, S.words.length - 1);
    var feats = data.toy.features;
    el.nudges.replaceChildren(
      h("p", { text: "Nudge token " + (i + 1) + " (\"" + S.words[i] + "\"), the selected row:" }),
      h("div", { "class": "ins-nudge-grid" }, feats.map(function (f, j) {
        return h("div", { "class": "ins-nudge" }, [
          h("span", { "class": "ins-feat", text: f }),
          h("button", { type: "button", "class": "ins-minus", "data-feature": String(j), "data-fkey": "minus-" + j, "aria-label": "nudge " + f + " of token " + (i + 1) + " down by 0.1",
                        onclick: function () { nudge(i, j, -0.1); } }, ["−"]),
          h("output", { "class": "ins-xval", text: fmt(S.r.x[i][j]) }),
          h("button", { type: "button", "class": "ins-plus", "data-feature": String(j), "data-fkey": "plus-" + j, "aria-label": "nudge " + f + " of token " + (i + 1) + " up by 0.1",
                        onclick: function () { nudge(i, j, 0.1); } }, ["+"])
        ]);
      })),
      h("button", { type: "button", "class": "ins-reset", "data-fkey": "reset", onclick: resetInput }, ["Reset the input"])
    );
  }

  // Every re-render keeps the keyboard where it was: the same element if it survived and can take
  // focus, else the equivalent control (the same row of another grid, the same word), else a sensible neighbour.
  function focusable(n) { return n && root.contains(n) && !n.disabled && !n.closest("[hidden]"); }
  function focusPlan() {
    var a = document.activeElement;
    if (!a || !root.contains(a) || a === root) return null;
    return { node: a, key: a.getAttribute("data-fkey"), row: a.classList.contains("ins-rowbtn") };
  }
  function restoreFocus(plan) {
    if (!plan) return;
    if (document.activeElement === plan.node && focusable(plan.node)) return;
    var c = [plan.node];
    if (plan.key) c.push(root.querySelector('[data-fkey="' + plan.key + '"]'));
    if (plan.row) c.push(root.querySelector('.ins-rowbtn[data-row="' + S.row + '"]'));
    if (plan.node === el.next) c.push(el.prev);
    if (plan.node === el.prev) c.push(el.next);
    if (plan.node === el.fewer) c.push(el.more);
    if (plan.node === el.more) c.push(el.fewer);
    if (plan.key && /^word-|^minus-|^plus-/.test(plan.key)) c.push(root.querySelector('[data-fkey="word-0"]'));
    c.push(el.stepButtons[S.step - 1]);
    for (var n = 0; n < c.length; n++) {
      if (focusable(c[n])) { if (document.activeElement !== c[n]) c[n].focus(); return; }
    }
  }

  function render() {
    S.row = Math.min(S.row, S.words.length - 1);
    pointerAtRender = pointerNow;
    var plan = focusPlan();
    renderNav(); renderStage(); renderRow(); renderCode(); renderInput();
    restoreFocus(plan);
  }

  // ------------------------------------------------------------------ state changes

  function recompute() { S.r = compute(S.words, S.nudge); }
  function zeros() { return [0, 0, 0, 0, 0, 0, 0, 0].slice(0, data.toy.n_embd); }

  function clampStep(n) { return Math.max(STEP_MIN, Math.min(STEP_MAX, Math.round(Number(n)) || STEP_MIN)); }
  function setStep(n) {
    S.step = clampStep(n);
    // the address always names the step shown (a link to #step=99 becomes #step=7)
    if (location.hash !== "#step=" + S.step) history.replaceState(null, "", "#step=" + S.step);
    render();
  }
  function setScale(s) { S.scale = s === "gpt2" ? "gpt2" : "toy"; render(); }
  function setHead(n) { S.head = n === 1 ? 1 : 0; render(); }
  function setRow(i) {
    if (i === S.row) return;
    S.row = Math.max(0, Math.min(S.words.length - 1, i));
    var a = document.activeElement, grid = a && a.classList.contains("ins-rowbtn") ? a.closest("table") : null;
    var name = grid ? grid.getAttribute("data-name") : null;
    render();
    if (name) { // the keyboard moved the row: follow it in the same grid
      var again = root.querySelector('[data-fkey="row-' + name + "-" + S.row + '"]');
      if (again) again.focus();
    }
  }
  function setWord(i, w) {
    if (!(w in data.toy.vocab)) throw new Error("unknown word " + w + "; known: " + Object.keys(data.toy.vocab).join(", "));
    S.words[i] = w; recompute(); render();
  }
  function setWords(ws) {
    ws.forEach(function (w) { if (!(w in data.toy.vocab)) throw new Error("unknown word " + w); });
    if (ws.length < 1 || ws.length > data.toy.max_tokens) throw new Error("1 to " + data.toy.max_tokens + " words");
    S.words = ws.slice(); S.nudge = ws.map(zeros); recompute(); render();
  }
  function nudge(i, j, by) {
    S.nudge[i][j] += by; recompute(); render();
  }
  function resetInput() { setWords(data.toy.words); }
  function setTokens(T) {
    T = Math.max(1, Math.min(data.toy.max_tokens, T));
    while (S.words.length < T) { S.words.push(FILL[S.words.length % FILL.length]); S.nudge.push(zeros()); }
    S.words.length = T; S.nudge.length = T;
    recompute(); render();
  }

  function stepFromHash() { // "#step=N" (any N: setStep clamps it), else null (another anchor of the page)
    var m = /^#step=([^&]*)$/.exec(location.hash);
    return m ? m[1] : null;
  }

  // ------------------------------------------------------------------ the skeleton

  function build() {
    var steps = data.steps.map(function (s, n) {
      return h("button", { type: "button", "class": "ins-stepbtn", "data-step": String(n + 1), onclick: function () { setStep(n + 1); } },
               [h("span", { "class": "ins-num", text: String(n + 1) }), " " + s.title]);
    });
    el.stepButtons = steps;
    el.prev = h("button", { type: "button", "class": "ins-prev", onclick: function () { setStep(S.step - 1); } }, ["← Previous"]);
    el.next = h("button", { type: "button", "class": "ins-next", onclick: function () { setStep(S.step + 1); } }, ["Next →"]);
    el.scaleButtons = [["toy", "toy scale"], ["gpt2", "GPT-2"]].map(function (p) {
      return h("button", { type: "button", "class": "ins-scale", "data-scale": p[0], onclick: function () { setScale(p[0]); } }, [p[1]]);
    });
    el.headButtons = [0, 1].map(function (n) {
      return h("button", { type: "button", "class": "ins-head", "data-head": String(n), onclick: function () { setHead(n); } }, ["head " + (n + 1)]);
    });
    el.tokens = h("output", { "class": "ins-tokens", "aria-live": "polite" });
    el.fewer = h("button", { type: "button", "class": "ins-fewer", "aria-label": "one token fewer", onclick: function () { setTokens(S.words.length - 1); } }, ["−"]);
    el.more = h("button", { type: "button", "class": "ins-more", "aria-label": "one token more", onclick: function () { setTokens(S.words.length + 1); } }, ["+"]);
    el.title = h("h3", { "class": "ins-title", "aria-live": "polite" });
    el.text = h("div", { "class": "ins-text" });
    el.op = h("p", { "class": "ins-op" });
    el.grids = h("div", { "class": "ins-grids" });
    el.rowPanel = h("div", { "class": "ins-rowpanel", "aria-live": "polite" });
    el.code = h("code");
    el.codeNote = h("p", { "class": "ins-codenote" });
    el.words = h("div", { "class": "ins-words" });
    el.nudges = h("div", { "class": "ins-nudges" });
    el.input = h("div", { "class": "ins-input" }, [h("h4", { text: "The input (toy scale)" }), el.words, el.nudges]);
    el.toyNote = h("p", { "class": "ins-toynote", hidden: "" },
                   ["At GPT-2 scale the page shows shapes and costs only: the head, the tokens and the input apply at toy scale."]);

    var app = h("div", { "class": "ins-ui" }, [
      h("div", { "class": "ins-toolbar" }, [
        h("div", { "class": "ins-group", role: "group", "aria-label": "scale" }, [h("span", { text: "Scale " })].concat(el.scaleButtons)),
        h("div", { "class": "ins-group", role: "group", "aria-label": "head" }, [h("span", { text: "Head " })].concat(el.headButtons)),
        h("div", { "class": "ins-group", role: "group", "aria-label": "tokens" }, [h("span", { text: "Tokens " }), el.fewer, el.tokens, el.more]),
        el.toyNote
      ]),
      h("nav", { "class": "ins-steps", "aria-label": "steps (or use the left and right arrow keys)" }, [el.prev].concat(steps, [el.next])),
      h("div", { "class": "ins-main" }, [
        h("section", { "class": "ins-stage" }, [el.title, el.text, el.op, el.grids]),
        h("aside", { "class": "ins-side" }, [
          el.rowPanel,
          h("div", { "class": "ins-codebox" }, [h("h4", { text: "Code: CausalSelfAttention.forward" }),
            h("pre", { "class": "ins-code", tabindex: "0" }, [el.code]), el.codeNote])
        ])
      ]),
      el.input
    ]);
    root.replaceChildren(app);
    root.classList.add("ins-ready");
  }

  // Does a left/right key belong to the element that has it? Form fields, the code box and any region
  // that really scrolls sideways keep their arrow keys.
  function keepsArrows(t) {
    for (var n = t; n && n !== document.body && n !== document.documentElement; n = n.parentElement) {
      var tag = n.tagName;
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || tag === "PRE" || n.isContentEditable) return true;
      if (n.scrollWidth > n.clientWidth + 1 && /auto|scroll/.test(getComputedStyle(n).overflowX)) return true;
      if (n === root) return false;
    }
    return false;
  }
  // With nothing focused, the arrows move the steps only while the explorer fills a good part of the screen.
  function explorerInView() {
    var b = root.getBoundingClientRect(), vh = window.innerHeight || document.documentElement.clientHeight;
    var seen = Math.min(b.bottom, vh) - Math.max(b.top, 0);
    return seen >= Math.min(b.height, vh) / 3;
  }
  function arrowsMoveSteps(t) {
    if (!t || t === document.body || t === document.documentElement) return explorerInView();
    return root.contains(t) && !keepsArrows(t);
  }

  function onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.defaultPrevented) return;
    var t = e.target;
    if ((e.key === "ArrowRight" || e.key === "ArrowLeft") && !arrowsMoveSteps(t)) return;
    if (e.key === "ArrowRight") { setStep(S.step + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { setStep(S.step - 1); e.preventDefault(); }
    else if ((e.key === "ArrowDown" || e.key === "ArrowUp") && t.classList && t.classList.contains("ins-rowbtn")) {
      setRow(S.row + (e.key === "ArrowDown" ? 1 : -1)); e.preventDefault();
    }
  }

  function start(json) {
    data = json;
    S.words = data.toy.words.slice();
    S.nudge = S.words.map(zeros);
    S.row = S.words.length - 1;
    recompute();
    build();
    var n = stepFromHash();
    if (n !== null) setStep(n); else render();
    document.addEventListener("keydown", onKey);
    window.addEventListener("hashchange", function () { var m = stepFromHash(); if (m !== null) setStep(m); });
    window.insideModel = {
      ready: true,
      state: function () {
        var r = S.r;
        return JSON.parse(JSON.stringify({
          scale: S.scale, step: S.step, head: S.head, row: S.row, words: S.words, nudge: S.nudge,
          x: r.x, q: r.q, k: r.k, v: r.v, scores: r.scores, scaled: r.scaled, weights: r.weights,
          masked: r.masked.map(function (g) { return g.map(function (row) { return row.map(function (v) { return v === -Infinity ? null : v; }); }); }),
          heads: r.heads, concat: r.concat, y: r.y
        }));
      },
      compute: function (words, nudgeRows) { return compute(words, nudgeRows); },
      setStep: setStep, setScale: setScale, setHead: setHead, setRow: setRow, setWords: setWords, setTokens: setTokens
    };
    root.dispatchEvent(new CustomEvent("inside-ready", { bubbles: true }));
  }

  fetch(root.getAttribute("data-src"))
    .then(function (res) {
      if (!res.ok) throw new Error("inside the model: cannot load " + res.url + " (" + res.status + ")");
      return res.json();
    })
    .then(start)
    .catch(function (err) {
      root.appendChild(h("p", { "class": "ins-error", text: "The explorer could not start (" + err.message + "). The static steps below still show every number." }));
    });
})();
