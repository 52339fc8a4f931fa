/* Real heads: the interactive grid of all-MiniLM-L6-v2's heads (the page's DOM).
 *
 * An ES module, no library. It reads generated/real-heads/index.json when the page opens, and a
 * sentence's own JSON only when that sentence is shown (the first one at the start). Every number
 * it prints comes from those files, written by the build; the rules live in model.js. The reader
 * picks a sentence, a layer and a head with the three menus, or moves through the grid with the
 * arrow keys (Home, End, Page Up and Page Down jump to an edge). tests/test_browser_real_heads.py
 * drives it as a reader does.
 */
import {
  LEVELS, cellText, checkSentence, headClass, headLabel, headName, headWeights, level, move, numberText,
  shortLabel,
} from "./model.js";

/** An element: h("td", { class: "x", text: "1", onclick: f }, [children]). */
function h(tag, attrs = {}, children = []) {
  const n = document.createElement(tag);
  for (const [a, v] of Object.entries(attrs)) {
    if (a === "text") n.textContent = v;
    else if (a === "class") n.className = v;
    else if (a.startsWith("on")) n.addEventListener(a.slice(2), v);
    else n.setAttribute(a, v);
  }
  n.append(...children.filter((c) => c != null && c !== ""));
  return n;
}

/** A labelled menu: h("label") holding its text and a <select> of [value, text] options. */
function menu(text, options, onchange) {
  const select = h("select", { onchange }, options.map(([v, t]) => h("option", { value: v, text: t })));
  return [h("label", { class: "rh-menu" }, [h("span", { text }), select]), select];
}

class HeadsGrid {
  constructor(root, index, base) {
    this.root = root;
    this.index = index;
    this.base = base;
    this.cache = new Map();
    this.layer = index.start.layer;
    this.head = index.start.head;
  }

  /** A sentence's data: fetched the first time it is shown, then kept. */
  async load(key) {
    if (!this.cache.has(key)) {
      const entry = this.index.sentences.find((s) => s.key === key);
      const res = await fetch(new URL(entry.src, this.base));
      if (!res.ok) throw new Error(`cannot load ${res.url} (${res.status})`);
      this.cache.set(key, checkSentence(this.index, await res.json()));
    }
    return this.cache.get(key);
  }

  build() {
    const { n_layer: L, n_head: H, sentences } = this.index;
    const [sentenceLabel, sentence] = menu("Sentence", sentences.map((s, n) => [s.key, `${n + 1} ${s.key}: ${s.text}`]),
      () => this.show(sentence.value));
    // The menus count from 1, as the page does; the grid counts from 0.
    const [layerLabel, layer] = menu("Layer", [...Array(L).keys()].map((l) => [l + 1, String(l + 1)]),
      () => this.select(Number(layer.value) - 1, this.head));
    const [headLabelEl, head] = menu("Head", [...Array(H).keys()].map((n) => [n + 1, String(n + 1)]),
      () => this.select(this.layer, Number(head.value) - 1));
    this.menus = { sentence, layer, head };
    this.text = h("p", { class: "rh-text" });
    this.grid = h("div", { class: "rh-grid", role: "group", "aria-label": `All ${L * H} heads: layers down, heads across. Arrow keys move between heads.` });
    this.grid.addEventListener("keydown", (e) => this.onKey(e));
    this.grid.append(h("span", { class: "rh-corner", "aria-hidden": "true" }));
    for (let n = 0; n < H; n++) this.grid.append(h("span", { class: "rh-col", "aria-hidden": "true", text: String(n + 1) }));
    this.buttons = [];
    for (let l = 0; l < L; l++) {
      this.grid.append(h("span", { class: "rh-row", "aria-hidden": "true", text: `layer ${l + 1}` }));
      this.buttons.push([...Array(H).keys()].map((n) => {
        const b = h("button", { type: "button", class: "rh-head", tabindex: "-1", onclick: () => this.select(l, n, true) },
          [h("canvas", { "aria-hidden": "true" }), h("span", { class: "rh-label", "aria-hidden": "true" })]);
        this.grid.append(b);
        return b;
      }));
    }
    this.large = h("div", { class: "rh-large" });
    this.status = h("p", { class: "rh-status", role: "status", "aria-live": "polite" });
    this.root.append(
      h("div", { class: "rh-toolbar" }, [sentenceLabel, layerLabel, headLabelEl]),
      this.text, this.grid, this.status, this.large,
    );
  }

  onKey(e) {
    const to = move(this.layer, this.head, e.key, this.index.n_layer, this.index.n_head);
    if (!to || !e.target.classList.contains("rh-head")) return;
    e.preventDefault();
    this.select(to[0], to[1], true);
  }

  /** Show a sentence: fetch its data if need be, then draw its grid and the picked head. */
  async show(key) {
    this.menus.sentence.value = key;
    this.root.setAttribute("aria-busy", "true");
    try {
      this.data = await this.load(key);
    } catch (err) {
      this.status.textContent = `This sentence could not be loaded (${err.message}). The pictures below still show it.`;
      return;
    } finally {
      this.root.removeAttribute("aria-busy");
    }
    this.text.textContent = this.data.text;
    this.drawGrid();
    this.select(this.layer, this.head);
  }

  /** Pick a head: menus, grid and the large view follow; `focus` moves the keyboard focus to it. */
  select(layer, head, focus = false) {
    this.layer = layer;
    this.head = head;
    this.menus.layer.value = String(layer + 1);
    this.menus.head.value = String(head + 1);
    this.buttons.forEach((row, l) => row.forEach((b, n) => {
      const on = l === layer && n === head;
      b.setAttribute("aria-pressed", String(on));
      b.tabIndex = on ? 0 : -1;
    }));
    if (focus) this.buttons[layer][head].focus();
    this.drawHead();
  }

  /** The thumbnails' ink and paper in the current colour scheme (heads.css sets them). */
  colours() {
    const style = getComputedStyle(this.root);
    return { ink: style.getPropertyValue("--rh-thumb").trim(), paper: style.getPropertyValue("--rh-paper").trim() };
  }

  drawGrid() {
    const { ink, paper } = this.colours();
    this.buttons.forEach((row, l) => row.forEach((b, n) => {
      const w = headWeights(this.index, this.data, l, n);
      const canvas = b.querySelector("canvas");
      canvas.width = canvas.height = w.length;
      const ctx = canvas.getContext("2d");
      ctx.fillStyle = paper;
      ctx.fillRect(0, 0, w.length, w.length);
      ctx.fillStyle = ink;
      w.forEach((r, i) => r.forEach((v, j) => {
        if (level(v) > 0) {
          ctx.globalAlpha = level(v) / LEVELS;
          ctx.fillRect(j, i, 1, 1);
        }
      }));
      ctx.globalAlpha = 1;
      // three short lines: the class, what its number measures, the number ("prev", "share", "1.00")
      const [cls, number] = shortLabel(this.index, this.data, l, n);
      const [what, value] = number.split(" ");
      b.querySelector(".rh-label").replaceChildren(...[cls, what, value].map((text) => h("span", { text })));
      b.setAttribute("aria-label", headLabel(this.index, this.data, l, n));
    }));
  }

  drawHead() {
    if (!this.data) return;
    const { layer, head, data, index } = this;
    const w = headWeights(index, data, layer, head);
    const c = headClass(index, data, layer, head);
    const n = index.sentences.findIndex((s) => s.key === data.key) + 1;
    const name = headName(layer, head);
    const number = numberText(index, data, layer, head);
    this.status.textContent = `Sentence ${n}, ${name}: ${c.label}, ${number}.`;
    const cols = data.tokens.map((t) => h("th", { scope: "col" }, [h("span", { text: t })]));
    const rows = w.map((r, i) => h("tr", {}, [
      h("th", { scope: "row", text: data.tokens[i] }),
      ...r.map((v) => {
        const td = h("td", { class: level(v) >= 7 ? "rh-w rh-strong" : "rh-w", text: cellText(v) });
        td.style.setProperty("--w", String(level(v) / LEVELS));
        return td;
      }),
    ]));
    const caption = `${name[0].toUpperCase()}${name.slice(1)}: ${c.label} (${number}). Rows: the token looking; columns: the token looked at; each row sums to 1.`;
    const table = h("table", { class: "rh-table" }, [
      h("caption", { text: caption }),
      h("thead", {}, [h("tr", {}, [h("td"), ...cols])]),
      h("tbody", {}, rows),
    ]);
    this.large.replaceChildren(h("div", { class: "rh-scroll", tabindex: "0", role: "region", "aria-label": `${name}, every weight` }, [table]));
  }

  async start() {
    this.build();
    await this.show(this.index.start.sentence);
    // Material switches the scheme on <body>: redraw the thumbnails in the new colours.
    new MutationObserver(() => this.data && this.drawGrid())
      .observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
    this.root.classList.add("rh-ready");
    this.root.dataset.ready = "true";
  }
}

const root = document.getElementById("real-heads-explorer");
if (root) {
  try {
    const res = await fetch(root.dataset.src);
    if (!res.ok) throw new Error(`cannot load ${res.url} (${res.status})`);
    await new HeadsGrid(root, await res.json(), res.url).start();
  } catch (err) {
    root.append(h("p", { class: "rh-error", text: `The grid could not start (${err.message}). The pictures and tables below still show every head.` }));
  }
}
