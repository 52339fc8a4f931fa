/* A causal model: the seven steps on a real head (the page's DOM).
 *
 * An ES module, no library. The page holds one head's steps as static HTML (built with the site)
 * and a form hidden for readers without JavaScript. This script shows the form; when the reader
 * picks a sentence, a layer, a head or a token, it fetches that sentence's JSON (once) and shows
 * the head's steps. What it shows comes from headView (model.js); tests/test_browser_causal.py
 * drives it as a reader does.
 */
import { headView } from "./model.js";

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

const row = (head, cells, cls) =>
  h("tr", {}, [h("th", { scope: "row", text: head }), ...cells.map((c) => h("td", cls ? { class: cls } : {}, [c]))]);

/** The shapes table's columns (attention_workshop.experiment.causal_md.SHAPES). */
const SHAPES = ["step", "SmolLM2", "SmolLM2 FLOPs", "GPT-2", "GPT-2 FLOPs"];

/** The picked token's row of the heat table: outlined (causal.css), current to a screen reader. */
const PICKED = { class: "ca-picked", "aria-current": "true" };

/** The view as HTML: the same elements as attention_workshop.experiment.causal_md.view_html. */
export function render(v) {
  const shapes = h("table", { class: "ca-shapes" }, [
    h("thead", {}, [h("tr", {}, SHAPES.map((t) => h("th", { scope: "col", text: t })))]),
    h("tbody", {}, v.shapes.map(([s, ...cells]) => row(s, cells))),
  ]);
  const rowTable = h("table", { class: "ca-row" }, [
    h("thead", {}, [h("tr", {}, [h("th", { scope: "col", text: "token" }), ...v.tokens.map((t) => h("th", { scope: "col", text: t }))])]),
    h("tbody", {}, [row("3. scaled score", v.before), row("4. after the mask", v.after), row("5. weight", v.weights)]),
  ]);
  const heat = h("table", { class: "ca-heat" }, [
    h("thead", {}, [h("tr", {}, [h("th", { scope: "col", text: "query" }), ...v.tokens.map((t) => h("th", { scope: "col", text: t }))])]),
    h("tbody", {}, v.heat.map((cells, i) => h("tr", i === v.picked ? PICKED : {}, [h("th", { scope: "row", text: v.tokens[i] }),
      ...cells.map(([w, k]) => h("td", { class: `ca-l${k}`, text: w }))]))),
  ]);
  const scroll = (t, label) => h("div", { class: "ca-scroll", tabindex: "0", role: "region", "aria-label": label }, [t]);
  return [
    h("p", { class: "ca-title", text: v.title }),
    scroll(shapes, "The seven steps' shapes"),
    scroll(rowTable, "The token's row, steps 3 to 5"),
    h("p", { class: "ca-size", text: `6. Its weighted sum is a row of ${v.width} numbers of length ${v.size}.` }),
    scroll(heat, "Every weight of the head"),
  ];
}

const root = document.getElementById("causal-explorer");
if (root) {
  const form = root.querySelector("form");
  const out = root.querySelector(".ca-out");
  const cache = new Map();
  const pick = (name) => Number(form.elements[name].value);
  async function show() {
    const key = form.elements.sentence.value;
    const src = form.querySelector(`a.ca-data[data-key="${key}"]`).href;
    try {
      if (!cache.has(src)) {
        const res = await fetch(src);
        if (!res.ok) throw new Error(`cannot load ${res.url} (${res.status})`);
        cache.set(src, await res.json());
      }
      const data = cache.get(src);
      const tokens = form.elements.token;
      if (tokens.dataset.src !== src) {
        const keep = Math.min(pick("token"), data.tokens.length) || data.tokens.length;
        tokens.replaceChildren(...data.tokens.map((t, i) => h("option", { value: String(i + 1), text: `${i + 1} ${t}` })));
        tokens.value = String(keep);
        tokens.dataset.src = src;
      }
      out.replaceChildren(...render(headView(data, pick("layer") - 1, pick("head") - 1, pick("token") - 1)));
      root.dataset.shown = `${key} ${pick("layer")} ${pick("head")} ${pick("token")}`;
    } catch (err) {
      out.prepend(h("p", { class: "ca-error", text: `This head could not be shown (${err.message}).` }));
    }
  }
  form.addEventListener("change", show);
  form.addEventListener("submit", (e) => e.preventDefault());
  form.hidden = false;
  root.dataset.ready = "true";
}
