/* The Real heads page's run box: the reader's own sentence through all-MiniLM-L6-v2, in this browser.
 *
 * The DOM side only: a sentence box, the Run button, the model's size said before it is downloaded,
 * a progress bar while it comes, and one line for anything wrong. worker.js downloads the model from
 * this site (once: the browser's cache keeps it) and runs minilm.js off the page's thread;
 * figures.js draws the grid and one head, in the page's colour scheme, with SVG and CSV downloads.
 * Nothing is sent anywhere. tests/test_browser_minilm.py drives it as a reader does.
 */
import { classesCsv, gridCsv, gridSvg, headCsv, headSvg } from "./figures.js";

/** An element: h("p", { class: "x", text: "..." }, [children]). */
function h(tag, attrs = {}, children = []) {
  const n = document.createElement(tag);
  for (const [a, v] of Object.entries(attrs)) {
    if (a === "text") n.textContent = v;
    else if (a === "class") n.className = v;
    else n.setAttribute(a, v);
  }
  n.append(...children);
  return n;
}

const MB = (n) => (n / 1e6).toFixed(1);
/** A control character a reader may have pasted (tab and line breaks are fine: they are spaces). */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;

/** An object URL for a download of `text`, freed when the next result replaces it. */
function download(text, type, name, label) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  return h("a", { href: url, download: name, class: "mm-download", text: label });
}

class RunBox {
  constructor(root) {
    this.root = root;
    this.url = root.querySelector("a.mm-model").href;
    this.bytes = Number(root.dataset.bytes);
    this.max = Number(root.dataset.maxTokens);
    this.worker = null;
    this.urls = [];
  }

  build() {
    this.input = h("textarea", { id: "mm-text", rows: "2", maxlength: "2000", spellcheck: "false" });
    this.button = h("button", { type: "button", class: "md-button md-button--primary mm-run", text: "Run" });
    this.button.addEventListener("click", () => this.run());
    this.progress = h("progress", { class: "mm-progress", max: String(this.bytes), value: "0", hidden: "", "aria-label": "Model download" });
    this.status = h("p", { class: "mm-status", role: "status", "aria-live": "polite" });
    this.error = h("p", { class: "mm-error", role: "alert" });
    this.out = h("div", { class: "mm-out" });
    this.root.querySelector(".mm-nojs")?.remove();
    this.root.prepend(
      h("label", { for: "mm-text", class: "mm-label", text: "Your sentence" }),
      this.input,
      h("div", { class: "mm-actions" }, [this.button, this.progress]),
    );
    this.root.append(this.status, this.error, this.out);
    this.root.dataset.ready = "true";
  }

  /** One line that says what went wrong; `retry` says that Run tries again. */
  fail(message, retry = false) {
    this.error.textContent = retry ? `${message} Press Run to try again.` : message;
    this.status.textContent = "";
    this.progress.hidden = true;
    this.button.disabled = false;
    this.root.removeAttribute("aria-busy");
    if (retry) {
      this.worker?.terminate();
      this.worker = null;
    }
  }

  /** The sentence, or null after saying why it cannot run. */
  sentence() {
    const text = this.input.value;
    if (!text.trim()) return this.fail("Type a sentence first: the box is empty."), null;
    const bad = text.match(CONTROL);
    if (bad) {
      const code = bad[0].codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
      return this.fail(`The sentence holds a control character (U+${code}) at character ${bad.index + 1}: delete it and press Run.`), null;
    }
    return text;
  }

  run() {
    const text = this.sentence();
    if (text === null) return;
    this.error.textContent = "";
    this.button.disabled = true;
    this.root.setAttribute("aria-busy", "true");
    if (!this.worker) {
      this.worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
      this.worker.onmessage = (e) => this.onMessage(e.data, text);
      this.worker.onerror = () => this.fail("The model could not start in this browser.", true);
      this.status.textContent = `Getting the model (${MB(this.bytes)} MB, once)…`;
    } else {
      this.worker.onmessage = (e) => this.onMessage(e.data, text);
      this.status.textContent = "Running…";
    }
    this.worker.postMessage({ url: this.url, bytes: this.bytes, text });
  }

  onMessage(m, text) {
    if (m.type === "progress") {
      this.progress.hidden = false;
      this.progress.value = m.got;
      this.status.textContent = `Downloading the model: ${MB(m.got)} of ${MB(m.total)} MB`;
    } else if (m.type === "arrived") {
      this.root.dataset.arrived = String(performance.now()); // the weights are here: the clock of the 2 s target
    } else if (m.type === "loaded") {
      this.progress.hidden = true;
      this.status.textContent = m.cached ? "The model came from this browser's cache. Running…" : "Model downloaded. Running…";
    } else if (m.type === "error") {
      this.fail(m.message, m.retry);
    } else if (m.type === "done") {
      this.draw(text, m);
    }
  }

  /** The grid and the first head large, in the page's scheme, with their downloads. */
  draw(text, m) {
    this.last = [text, m];
    const scheme = document.body.dataset.mdColorScheme === "slate" ? "dark" : "light";
    this.urls.forEach((u) => URL.revokeObjectURL(u));
    const links = [
      download(gridSvg(text, m.attentions, "light"), "image/svg+xml", "my-sentence-grid-light.svg", "grid SVG (light)"),
      download(gridSvg(text, m.attentions, "dark"), "image/svg+xml", "my-sentence-grid-dark.svg", "grid SVG (dark)"),
      download(classesCsv(m.attentions), "text/csv", "my-sentence-grid.csv", "grid CSV (each head's class and measures)"),
      download(gridCsv(m.tokens, m.attentions), "text/csv", "my-sentence-weights.csv", "every weight as CSV"),
    ];
    const layer = 0, head = 2;
    const name = `layer ${layer + 1}, head ${head + 1}`;
    const w = m.attentions[layer][head];
    links.push(
      download(headSvg(m.tokens, w, `${name}: "${text}"`, scheme), "image/svg+xml", "my-sentence-head.svg", `${name} SVG`),
      download(headCsv(m.tokens, w), "text/csv", "my-sentence-head.csv", `${name} CSV`),
    );
    this.urls = links.map((a) => a.href);
    // the grid fits the column; the large head keeps its size and scrolls (by keyboard too)
    const figure = (svg, cls, label) => {
      const div = h("div", { class: `mm-figure ${cls}`, tabindex: "0", role: "region", "aria-label": label });
      div.innerHTML = svg; // our own SVG text: every token and the sentence escaped (figures.js esc)
      return div;
    };
    this.out.replaceChildren(
      h("p", { class: "mm-tokens", text: `${m.tokens.length} tokens: ${m.tokens.join(" ")}` }),
      figure(gridSvg(text, m.attentions, scheme), "mm-grid", "All heads on your sentence"),
      figure(headSvg(m.tokens, w, `${name}: "${text}"`, scheme), "mm-head", `${name} on your sentence, every weight`),
      h("p", { class: "mm-downloads" }, links.flatMap((a, i) => (i ? [" · ", a] : [a]))),
    );
    this.out.dataset.classes = links[2].href;
    this.out.dataset.csv = links[3].href;
    this.root.dataset.drawn = String(performance.now());
    this.status.textContent = `Done: ${m.tokens.length} tokens, every head computed in this browser in ${Math.round(m.ms)} ms.`;
    this.button.disabled = false;
    this.root.removeAttribute("aria-busy");
    this.root.dataset.done = String(Number(this.root.dataset.done || 0) + 1);
  }
}

const root = document.getElementById("minilm-run");
if (root) {
  const box = new RunBox(root);
  box.build();
  // Material switches the scheme on <body>: redraw the figures in the new colours.
  new MutationObserver(() => box.last && box.draw(...box.last))
    .observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
}
