/* Inside the model: the interactive explorer of one causal attention block (the page's DOM).
 *
 * An ES module, no library. All sizes, costs, code lines, step titles and the toy weights come
 * from generated/inside-the-model.json (written by attention_workshop.inside at build time). The
 * live recompute and every rule that needs no page live in model.js; this file builds the explorer,
 * keeps its state (scale, step, head, selected row, words, nudges), draws it and handles the
 * mouse and the keyboard. tests/test_browser_inside.py drives it as a reader does.
 */
import {
  clampStep, compute, count, fmt, growthText, isWord, labels, outputColours, plural, stepFromHash, tokenColours,
  withTokens, zeros,
} from "./model.js";

// ------------------------------------------------------------------ small DOM helpers

/** Children as DOM nodes: strings become text, and null, undefined, false and "" are left out. */
const nodes = (children) => children.filter((c) => c != null && c !== false && c !== "")
  .map((c) => (typeof c === "string" ? document.createTextNode(c) : c));

/** Replace an element's children (the same rule as h(): nothing empty becomes the text "null"). */
const fill = (node, children) => node.replaceChildren(...nodes(children));

/** An element: h("td", { class: "x", text: "1", onclick: f, "data-v": "1" }, [children]). */
function h(tag, attrs = {}, children = []) {
  const n = document.createElement(tag);
  for (const [a, v] of Object.entries(attrs)) {
    if (a === "text") n.textContent = v;
    else if (a === "class") n.className = v;
    else if (a.startsWith("on")) n.addEventListener(a.slice(2), v);
    else n.setAttribute(a, v);
  }
  n.append(...nodes(children));
  return n;
}

/** One coloured cell that also prints its value (colour never carries it alone); data-v keeps every digit. */
function cell(v) {
  const kind = v === -Infinity ? "ins-masked" : v >= 0 ? "ins-pos" : "ins-neg";
  const td = h("td", { class: `ins-cell ${kind}`, "data-v": v === -Infinity ? "-inf" : String(v) }, [fmt(v)]);
  if (v !== -Infinity) td.style.setProperty("--a", Math.min(Math.abs(v), 1).toFixed(2));
  return td;
}

/** A small square of a token's colour (or of a blend of them); the text beside it says whose it is. */
const swatch = (colour) => h("span", { class: "ins-swatch", "aria-hidden": "true", "data-colour": colour, style: `background:${colour}` });

/** The page's own figures of these names (the build draws them; see gpt2_blocks.py), copied; the copies
 *  already inside `root` are not the page's. */
function pageFigures(names, root) {
  return names.flatMap((name) => [...document.querySelectorAll("figure.workshop-figure")]
    .filter((f) => !root.contains(f) && f.querySelector(`img[src*="/${name}"]`))
    .map((f) => { const c = f.cloneNode(true); c.removeAttribute("id"); return c; }));
}

/** The paragraphs under a static step's heading: the explorer shows the same explanation. */
function explanation(id) {
  const out = [];
  for (let n = document.getElementById(id)?.nextElementSibling; n && n.tagName === "P"; n = n.nextElementSibling) {
    out.push(n.cloneNode(true));
  }
  return out;
}

// ------------------------------------------------------------------ the explorer

class Explorer {
  constructor(root, data) {
    this.root = root;
    this.data = data;
    this.toy = data.toy;
    this.stepCount = data.steps.length;
    this.scale = "toy";
    this.step = 1;
    this.head = 0;
    this.words = this.toy.words.slice();
    this.nudge = this.words.map(() => zeros(this.toy.n_embd));
    this.row = this.words.length - 1;
    this.el = {};
    this.recompute();
  }

  get isToy() { return this.scale === "toy"; }
  get T() { return this.words.length; }
  costs() { return this.isToy ? this.toy.costs[String(this.T)] : this.data.gpt2.costs; }
  code() { return this.isToy ? this.toy.code[String(this.T)] : this.data.gpt2.code; }
  recompute() { this.r = compute(this.toy, this.words, this.nudge); }

  // ---------------------------------------------------------------- state changes

  setStep(n) {
    this.step = clampStep(n, this.stepCount);
    // the address always names the step shown (a link to #step=99 becomes the last step)
    if (location.hash !== `#step=${this.step}`) history.replaceState(null, "", `#step=${this.step}`);
    this.render();
  }
  setScale(s) { this.scale = s === "gpt2" ? "gpt2" : "toy"; this.render(); }
  setHead(n) { this.head = Math.max(0, Math.min(this.toy.n_head - 1, n)); this.render(); }
  setRow(i) {
    const row = Math.max(0, Math.min(this.T - 1, i));
    if (row === this.row) return;
    this.row = row;
    this.render();
  }
  setWord(i, w) {
    if (!isWord(this.toy.vocab, w)) return false; // only the vocabulary's own words: "constructor" is not one
    this.words[i] = w;
    this.recompute();
    this.render();
    return true;
  }
  nudgeBy(i, j, by) { this.nudge[i][j] += by; this.recompute(); this.render(); }
  resetInput() {
    this.words = this.toy.words.slice();
    this.nudge = this.words.map(() => zeros(this.toy.n_embd));
    this.recompute();
    this.render();
  }
  setTokens(T) {
    ({ words: this.words, nudge: this.nudge } = withTokens(this.toy, this.words, this.nudge, T));
    this.recompute();
    this.render();
  }

  // ---------------------------------------------------------------- drawing

  /** The tokens' colours (row i of an input grid, column j of a grid over tokens). */
  colours() { return tokenColours(this.toy.token_colours, this.T); }

  /**
   * A matrix as a grid of coloured cells; each row's label is a button that selects the row. Row labels
   * carry `rowColours` (a token's own colour, or an output row's blend); columns over tokens carry theirs.
   */
  grid(M, cols, caption, name, rowColours = this.colours(), colColours = null) {
    const L = labels(this.words);
    const head = h("tr", {}, [h("th"), ...cols.map((c, j) => h("th", { scope: "col" }, [colColours && swatch(colColours[j]), c]))]);
    const body = M.map((row, i) => {
      const btn = h("button", {
        type: "button", class: "ins-rowbtn", "data-row": String(i), "data-fkey": `row-${name}-${i}`,
        "aria-pressed": String(i === this.row), "aria-label": `row ${L[i]}: show its breakdown`,
        onclick: () => this.setRow(i),
      }, [swatch(rowColours[i]), L[i]]);
      return h("tr", { class: i === this.row ? "ins-selected" : "", "data-row": String(i) },
        [h("th", { scope: "row" }, [btn]), ...row.map(cell)]);
    });
    // A grid wider than the screen scrolls sideways: the keyboard can reach it (tabindex) and it has a name.
    return h("div", { class: "ins-matrix", tabindex: "0", role: "region", "aria-label": `table: ${caption}`, "data-fkey": `grid-${name}` }, [
      h("table", { class: "ins-grid", "data-name": name }, [h("caption", { text: caption }), h("thead", {}, [head]), h("tbody", {}, body)]),
    ]);
  }

  stepGrids() {
    const { r, head: hd, toy: t } = this, hn = `head ${hd + 1}`, L = labels(this.words);
    const qk = Array.from({ length: t.head_size }, (_, d) => String(d + 1));
    const all = Array.from({ length: t.n_embd }, (_, j) => String(j + 1));
    const cat = all.map((_, j) => `h${1 + Math.floor(j / t.head_size)}·${1 + (j % t.head_size)}`);
    const own = this.colours(), palette = t.token_colours;
    switch (this.data.steps[this.step - 1].id) {
      case "projections": return [this.grid(r.x, t.features, "x: the input, one row per token", "x"),
        this.grid(r.q[hd], qk, `Q (${hn})`, "q"), this.grid(r.k[hd], qk, `K (${hn})`, "k"), this.grid(r.v[hd], qk, `V (${hn})`, "v")];
      case "scores": return [this.grid(r.scores[hd], L, `Q·Kᵀ (${hn})`, "scores", own, own)];
      case "scale": return [this.grid(r.scaled[hd], L, `Q·Kᵀ / √${t.head_size} (${hn})`, "scaled", own, own)];
      case "causal-mask": return [this.grid(r.masked[hd], L, `masked scores (${hn})`, "masked", own, own)];
      case "softmax": return [this.grid(r.weights[hd], L, `attention weights A (${hn}); every row sums to 1`, "weights", own, own)];
      case "weighted-sum": return [this.grid(r.heads[hd], qk, `A·V (${hn}): this head's output`, "heads", outputColours(palette, r.weights, hd))];
      default: {
        const both = outputColours(palette, r.weights, null);
        return [this.grid(r.concat, cat, "both heads side by side", "concat", both),
          this.grid(r.y, all, "y = concat · W_O + b", "y", both)];
      }
    }
  }

  gpt2Box() {
    const g = this.data.gpt2;
    return h("div", { class: "ins-gpt2" }, [
      h("p", {}, ["GPT-2 small: ", h("strong", { text: `${g.n_embd} ` }), "numbers per token, ", h("strong", { text: `${g.n_head} ` }),
        "heads of ", h("strong", { text: String(g.head_size) }), ", c_attn ", h("strong", { text: `${g.c_attn[0]} × ${g.c_attn[1]}` }),
        `, c_proj ${g.c_proj[0]} × ${g.c_proj[1]}, at its full context of ${plural(g.n_ctx, "token")}.`]),
      ...pageFigures(g.figures, this.root),
    ]);
  }

  renderNav() {
    const { el } = this;
    el.stepButtons.forEach((b, n) => {
      const on = n + 1 === this.step;
      b.setAttribute("aria-current", on ? "step" : "false");
      b.classList.toggle("ins-on", on);
    });
    el.prev.disabled = this.step === 1;
    el.next.disabled = this.step === this.stepCount;
    el.scaleButtons.forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.scale === this.scale)));
    // At GPT-2 scale only shapes and costs are shown: the head, the tokens and the input change nothing there.
    el.headButtons.forEach((b) => {
      b.setAttribute("aria-pressed", String(this.isToy && Number(b.dataset.head) === this.head));
      b.disabled = !this.isToy;
    });
    el.tokens.textContent = count(this.isToy ? this.T : this.data.gpt2.n_ctx);
    el.fewer.disabled = !this.isToy || this.T <= 1;
    el.more.disabled = !this.isToy || this.T >= this.toy.max_tokens;
    el.toyNote.hidden = this.isToy;
    el.input.hidden = !this.isToy;
    this.root.dataset.scale = this.scale;
  }

  renderStage() {
    const { el } = this, step = this.data.steps[this.step - 1], c = this.costs()[this.step - 1];
    el.title.textContent = `Step ${this.step} of ${this.stepCount}: ${step.title}`;
    fill(el.text, explanation(step.id));
    const where = this.isToy ? `toy, ${plural(this.T, "token")}` : `GPT-2, ${plural(this.data.gpt2.n_ctx, "token")}`;
    fill(el.op, [
      h("span", { class: "ins-tag", text: where }), " ", h("code", { text: c.op }), " · ", h("strong", { text: c.cost }),
      c.per_token && ` · ${c.per_token}`,
      c.note && h("span", { class: "ins-note", text: ` (${c.note})` }),
    ]);
    const kids = this.isToy ? this.stepGrids() : [this.gpt2Box()];
    if (this.isToy && step.id === "scores") {
      kids.push(h("p", { class: "ins-growth" }, growthText(this.data.growth, this.T).map((s) => h("span", { text: `${s} ` }))));
    }
    fill(el.grids, kids);
  }

  renderRow() {
    const { el } = this;
    if (!this.isToy) {
      fill(el.rowPanel, [h("h4", { text: "Row breakdown" }),
        h("p", { text: "Switch to toy scale to see one token's scores, weights and blend with real numbers." })]);
      return;
    }
    const { r, head: hd, row: i } = this, L = labels(this.words), W = r.weights[hd][i];
    const own = this.colours(), out = outputColours(this.toy.token_colours, r.weights, hd)[i];
    const vec = (xs) => `[${xs.map((x) => fmt(x, 3)).join(", ")}]`;
    let total = 0;
    const rows = this.words.map((_, j) => {
      total += W[j];
      return h("tr", { class: j > i ? "ins-future" : "" }, [
        h("th", { scope: "row" }, [swatch(own[j]), L[j]]), cell(r.masked[hd][i][j]), cell(W[j]),
        h("td", { class: "ins-vec", text: j > i ? "hidden (future)" : vec(r.v[hd][j].map((x) => W[j] * x)) }),
      ]);
    });
    rows.push(h("tr", { class: "ins-sum" }, [h("th", { scope: "row" }, [swatch(out), "sum"]), h("td"),
      h("td", { class: "ins-total", "data-v": String(total), text: fmt(total) }),
      h("td", { class: "ins-vec ins-out", text: vec(r.heads[hd][i]) })]));
    fill(el.rowPanel, [
      h("h4", { text: `Row breakdown: ${L[i]} (head ${hd + 1})` }),
      h("p", { text: "Its scaled, masked scores; the weights softmax makes of them; and each visible token's value row times its weight. The sum of those rows is this token's output from the head. Each token has a colour; the sum's colour is their blend, in proportion to the weights." }),
      h("div", { class: "ins-matrix", tabindex: "0", role: "region", "aria-label": `table: row breakdown of ${L[i]}`, "data-fkey": "breakdown" }, [
        h("table", { class: "ins-breakdown" }, [
          h("thead", {}, [h("tr", {}, ["looks at", "score", "weight", "weight × value row"].map((t) => h("th", { text: t })))]),
          h("tbody", {}, rows),
        ]),
      ]),
    ]);
  }

  renderCode() {
    const { el } = this;
    fill(el.code, this.code().map((ln) => {
      const on = ln.steps.includes(this.step);
      return h("span", { class: `ins-line${on ? " ins-current" : ""}`, "data-steps": ln.steps.join(" ") }, [
        h("span", { class: "ins-mark", "aria-hidden": "true", text: on ? "▶ " : "  " }),
        ln.code, ln.shape && h("span", { class: "ins-shape", text: `  # ${ln.shape}` }), "\n",
      ]);
    }));
    const at = this.isToy ? `toy scale, T = ${this.T}` : `GPT-2 scale, T = ${this.data.gpt2.n_ctx}`;
    el.codeNote.textContent = `Shapes at ${at}; the highlighted line (▶) does step ${this.step}.`;
  }

  renderInput() {
    const { el, toy } = this, vocab = Object.keys(toy.vocab);
    const now = el.words.querySelectorAll(".ins-word");
    if (now.length === this.T) { // same tokens: keep the elements (and the focus), update them
      now.forEach((label, i) => {
        label.className = `ins-word${i === this.row ? " ins-selected" : ""}`;
        const sel = label.querySelector("select");
        if (sel.value !== this.words[i]) sel.value = this.words[i];
      });
    } else {
      fill(el.words, this.words.map((w, i) => {
        const sel = h("select", {
          "aria-label": `word of token ${i + 1}`, "data-token": String(i), "data-fkey": `word-${i}`,
          onchange: (e) => { if (!this.setWord(i, e.target.value)) e.target.value = this.words[i]; },
        }, vocab.map((v) => h("option", { value: v, text: v })));
        sel.value = w;
        return h("label", { class: `ins-word${i === this.row ? " ins-selected" : ""}` }, [h("span", {}, [swatch(this.colours()[i]), `token ${i + 1}`]), sel]);
      }));
    }
    const i = this.row;
    const button = (f, j, sign) => h("button", {
      type: "button", class: sign > 0 ? "ins-plus" : "ins-minus", "data-feature": String(j), "data-fkey": `${sign > 0 ? "plus" : "minus"}-${j}`,
      "aria-label": `nudge ${f} of token ${i + 1} ${sign > 0 ? "up" : "down"} by 0.1`, onclick: () => this.nudgeBy(i, j, sign * 0.1),
    }, [sign > 0 ? "+" : "−"]);
    fill(el.nudges, [
      h("p", { text: `Nudge token ${i + 1} ("${this.words[i]}"), the selected row:` }),
      h("div", { class: "ins-nudge-grid" }, toy.features.map((f, j) => h("div", { class: "ins-nudge" }, [
        h("span", { class: "ins-feat", text: f }), button(f, j, -1),
        h("output", { class: "ins-xval", text: fmt(this.r.x[i][j]) }), button(f, j, +1),
      ]))),
      h("button", { type: "button", class: "ins-reset", "data-fkey": "reset", onclick: () => this.resetInput() }, ["Reset the input"]),
    ]);
  }

  render() {
    this.row = Math.min(this.row, this.T - 1);
    const plan = this.focusPlan();
    this.renderNav();
    this.renderStage();
    this.renderRow();
    this.renderCode();
    this.renderInput();
    this.restoreFocus(plan);
  }

  // ---------------------------------------------------------------- focus across re-renders

  // Every re-render keeps the keyboard where it was: the same element if it survived and can take
  // focus, else the equivalent control (the same row of another grid, the same word), else a sensible neighbour.
  focusable(n) { return n && this.root.contains(n) && !n.disabled && !n.closest("[hidden]"); }

  focusPlan() {
    const a = document.activeElement;
    if (!a || !this.root.contains(a) || a === this.root) return null;
    return { node: a, key: a.getAttribute("data-fkey"), row: a.classList.contains("ins-rowbtn") };
  }

  restoreFocus(plan) {
    if (!plan) return;
    const { el, root } = this;
    if (document.activeElement === plan.node && this.focusable(plan.node)) return;
    const pairs = new Map([[el.next, el.prev], [el.prev, el.next], [el.fewer, el.more], [el.more, el.fewer]]);
    const candidates = [
      plan.node,
      plan.key && root.querySelector(`[data-fkey="${plan.key}"]`),
      plan.row && root.querySelector(`.ins-rowbtn[data-row="${this.row}"]`),
      pairs.get(plan.node),
      plan.key && /^(word|minus|plus)-/.test(plan.key) && root.querySelector('[data-fkey="word-0"]'),
      el.stepButtons[this.step - 1],
    ];
    const to = candidates.find((c) => this.focusable(c));
    if (to && document.activeElement !== to) to.focus();
  }

  // ---------------------------------------------------------------- the skeleton

  build() {
    const el = this.el;
    const button = (cls, text, onclick, attrs = {}) => h("button", { type: "button", class: cls, onclick, ...attrs }, text);
    el.stepButtons = this.data.steps.map((s, n) => button("ins-stepbtn", [h("span", { class: "ins-num", text: String(n + 1) }), ` ${s.title}`],
      () => this.setStep(n + 1), { "data-step": String(n + 1) }));
    el.prev = button("ins-prev", ["← Previous"], () => this.setStep(this.step - 1));
    el.next = button("ins-next", ["Next →"], () => this.setStep(this.step + 1));
    el.scaleButtons = [["toy", "toy scale"], ["gpt2", "GPT-2"]].map(([s, text]) =>
      button("ins-scale", [text], () => this.setScale(s), { "data-scale": s }));
    el.headButtons = Array.from({ length: this.toy.n_head }, (_, n) =>
      button("ins-head", [`head ${n + 1}`], () => this.setHead(n), { "data-head": String(n) }));
    el.tokens = h("output", { class: "ins-tokens", "aria-live": "polite" });
    el.fewer = button("ins-fewer", ["−"], () => this.setTokens(this.T - 1), { "aria-label": "one token fewer" });
    el.more = button("ins-more", ["+"], () => this.setTokens(this.T + 1), { "aria-label": "one token more" });
    el.title = h("h3", { class: "ins-title", "aria-live": "polite" });
    el.text = h("div", { class: "ins-text" });
    el.op = h("p", { class: "ins-op" });
    el.grids = h("div", { class: "ins-grids" });
    el.rowPanel = h("div", { class: "ins-rowpanel", "aria-live": "polite" });
    el.code = h("code");
    el.codeNote = h("p", { class: "ins-codenote" });
    el.words = h("div", { class: "ins-words" });
    el.nudges = h("div", { class: "ins-nudges" });
    el.input = h("div", { class: "ins-input" }, [h("h4", { text: "The input (toy scale)" }), el.words, el.nudges]);
    el.toyNote = h("p", { class: "ins-toynote", hidden: "" },
      ["At GPT-2 scale the page shows shapes and costs only: the head, the tokens and the input apply at toy scale."]);
    const group = (name, kids) => h("div", { class: "ins-group", role: "group", "aria-label": name.toLowerCase() }, [h("span", { text: `${name} ` }), ...kids]);

    this.root.replaceChildren(h("div", { class: "ins-ui" }, [
      h("div", { class: "ins-toolbar" }, [
        group("Scale", el.scaleButtons), group("Head", el.headButtons), group("Tokens", [el.fewer, el.tokens, el.more]), el.toyNote,
      ]),
      h("nav", { class: "ins-steps", "aria-label": "steps (or use the left and right arrow keys)" }, [el.prev, ...el.stepButtons, el.next]),
      // Beside the grids (inside.css, on a wide screen): the input they are made from and the row
      // breakdown of the grid's selected row; on a phone they follow the grids. The code spans both.
      h("div", { class: "ins-main" }, [
        h("section", { class: "ins-stage" }, [el.title, el.text, el.op, el.grids]),
        h("aside", { class: "ins-side" }, [el.input, el.rowPanel]),
        h("div", { class: "ins-codebox" }, [h("h4", { text: "Code: CausalSelfAttention.forward" }),
          h("pre", { class: "ins-code", tabindex: "0" }, [el.code]), el.codeNote]),
      ]),
    ]));
    this.root.classList.add("ins-ready");
    // The explorer runs: the static copy of every step (for readers without JavaScript) steps aside.
    document.documentElement.classList.add("ins-live");
  }

  // ---------------------------------------------------------------- the keyboard

  // Does a left/right key belong to the element that has it? Form fields, the code box and any region
  // that really scrolls sideways keep their arrow keys.
  keepsArrows(t) {
    for (let n = t; n && n !== document.body && n !== document.documentElement; n = n.parentElement) {
      if (["INPUT", "SELECT", "TEXTAREA", "PRE"].includes(n.tagName) || n.isContentEditable) return true;
      if (n.scrollWidth > n.clientWidth + 1 && /auto|scroll/.test(getComputedStyle(n).overflowX)) return true;
      if (n === this.root) return false;
    }
    return false;
  }

  // With nothing focused, the arrows move the steps only while the explorer fills a good part of the screen.
  inView() {
    const b = this.root.getBoundingClientRect(), vh = window.innerHeight || document.documentElement.clientHeight;
    return Math.min(b.bottom, vh) - Math.max(b.top, 0) >= Math.min(b.height, vh) / 3;
  }

  arrowsMoveSteps(t) {
    if (!t || t === document.body || t === document.documentElement) return this.inView();
    return this.root.contains(t) && !this.keepsArrows(t);
  }

  onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.defaultPrevented) return;
    const t = e.target;
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      if (!this.arrowsMoveSteps(t)) return;
      this.setStep(this.step + (e.key === "ArrowRight" ? 1 : -1));
      e.preventDefault();
    } else if ((e.key === "ArrowDown" || e.key === "ArrowUp") && t.classList?.contains("ins-rowbtn")) {
      // from the row that has the keyboard (not the selected one), in the same grid
      const grid = t.closest("table").dataset.name;
      const to = Math.max(0, Math.min(this.T - 1, Number(t.dataset.row) + (e.key === "ArrowDown" ? 1 : -1)));
      this.setRow(to);
      this.root.querySelector(`[data-fkey="row-${grid}-${to}"]`)?.focus();
      e.preventDefault();
    }
  }

  start() {
    this.build();
    const n = stepFromHash(location.hash);
    if (n !== null) this.setStep(n); else this.render();
    document.addEventListener("keydown", (e) => this.onKey(e));
    window.addEventListener("hashchange", () => {
      const m = stepFromHash(location.hash);
      if (m !== null) this.setStep(m);
    });
    this.root.dataset.ready = "true";
  }
}

// ------------------------------------------------------------------ start

const root = document.getElementById("inside-explorer");
if (root) {
  try {
    const res = await fetch(root.dataset.src);
    if (!res.ok) throw new Error(`cannot load ${res.url} (${res.status})`);
    new Explorer(root, await res.json()).start();
  } catch (err) {
    root.append(h("p", { class: "ins-error", text: `The explorer could not start (${err.message}). The static steps below still show every number.` }));
  }
}
