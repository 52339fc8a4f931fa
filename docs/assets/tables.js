// Every box wider than its content says so. Tables sit in scroll boxes the keyboard can reach
// (hooks/tables.py; the explorers make theirs), and any other box of the page that scrolls sideways
// (a grid of heads, a code block, a figure too wide for a phone) is watched the same way: while its
// content is wider than the box, the box carries data-scroll ("right", "left right" or "left": the sides
// with more to see), and workshop.css draws the cue, "scroll →" at the top of the box and a fade at the cut
// edge (--workshop-box-width keeps the cue in the box's visible width, a grid's first row included).
// The key columns stay in view (sticky, workshop.css): a box with data-keys="2" keeps its second column
// beside the first, which is as wide as this script measures.
(() => {
  const BOXES = '[role="region"][tabindex="0"]';
  // Elements that may scroll sideways: each is watched if its style lets it scroll (overflow-x auto or scroll).
  const MAYBE = 'article :is(div, pre, code, figure, p, section, [tabindex])';
  const seen = new Set();   // the boxes watched (those gone from the page are let go)
  let looked = new WeakSet();   // every element looked at since the last resize (a media query may change its overflow)
  const boxOf = new WeakMap();   // a watched box, and the element inside that sizes it, -> the box

  function scrolls(el) {
    if (el.matches(BOXES)) return true;
    const x = getComputedStyle(el).overflowX;
    return x === "auto" || x === "scroll";
  }

  function update(box) {
    const over = scrolls(box) ? box.scrollWidth - box.clientWidth : 0;
    const sides = [];
    if (over > 1) {
      if (box.scrollLeft > 1) sides.push("left");
      if (box.scrollLeft < over - 1) sides.push("right");
    }
    const now = sides.join(" ");
    if (now) box.style.setProperty("--workshop-box-width", `${box.clientWidth}px`);
    if (now && box.dataset.scroll !== now) box.dataset.scroll = now;
    else if (!now && "scroll" in box.dataset) delete box.dataset.scroll;
    if (box.dataset.keys === "2") {
      const first = box.querySelector("tr > :first-child");
      if (first) box.style.setProperty("--workshop-key-left", `${first.getBoundingClientRect().width}px`);
    }
  }

  const resized = new ResizeObserver((entries) => {
    for (const e of entries) {
      const box = boxOf.get(e.target);
      if (box) update(box);
    }
  });

  function watch() {
    for (const box of document.querySelectorAll(`${BOXES}, ${MAYBE}`)) {
      if (looked.has(box)) continue;
      looked.add(box);
      if (seen.has(box) || !scrolls(box)) continue;
      seen.add(box);
      box.addEventListener("scroll", () => update(box), { passive: true });
      boxOf.set(box, box);
      resized.observe(box);
      const inner = box.querySelector("table:not(.highlighttable)") || box.firstElementChild;
      if (inner) { boxOf.set(inner, box); resized.observe(inner); }
      update(box);
    }
  }

  // Boxes that arrive later (an explorer's grids, re-drawn at every step) are watched as they come.
  let queued = false;
  const soon = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      for (const box of seen) if (box.isConnected) update(box); else seen.delete(box);   // new content may overflow
      watch();
    });
  };
  new MutationObserver(soon).observe(document.body, { childList: true, subtree: true });
  // An image that loads (figures load lazily) may widen its box's content without resizing either.
  document.addEventListener("load", (e) => {
    const box = e.target instanceof HTMLImageElement ? e.target.closest(".workshop-figure-scroll") : null;
    if (box && seen.has(box)) update(box);
  }, true);
  // A box may start to scroll at a narrower width (a grid scrolls on a phone only): look again.
  addEventListener("resize", () => { looked = new WeakSet(); soon(); }, { passive: true });
  watch();
})();
