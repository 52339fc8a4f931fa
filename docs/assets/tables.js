// Tables wider than their box say so. Every table sits in a scroll box the keyboard can reach
// (hooks/tables.py; the explorers make theirs): while its table is wider than the box, the box carries
// data-scroll ("right", "left right" or "left": the sides with more to see), and workshop.css draws the cue,
// "scroll →" above the table and a fade at the cut edge. The key columns stay in view (sticky, workshop.css):
// a box with data-keys="2" keeps its second column beside the first, which is as wide as this script measures.
(() => {
  const BOXES = '[role="region"][tabindex="0"]';
  const seen = new WeakSet();

  function update(box) {
    const over = box.scrollWidth - box.clientWidth;
    const sides = [];
    if (over > 1) {
      if (box.scrollLeft > 1) sides.push("left");
      if (box.scrollLeft < over - 1) sides.push("right");
    }
    const now = sides.join(" ");
    if (now && box.dataset.scroll !== now) box.dataset.scroll = now;
    else if (!now && "scroll" in box.dataset) delete box.dataset.scroll;
    if (box.dataset.keys === "2") {
      const first = box.querySelector("tr > :first-child");
      if (first) box.style.setProperty("--workshop-key-left", `${first.getBoundingClientRect().width}px`);
    }
  }

  const resized = new ResizeObserver((entries) => {
    for (const e of entries) update(e.target.matches(BOXES) ? e.target : e.target.closest(BOXES));
  });

  function watch() {
    for (const box of document.querySelectorAll(BOXES)) {
      const table = box.querySelector("table:not(.highlighttable)");
      if (seen.has(box) || !table) continue;
      seen.add(box);
      box.addEventListener("scroll", () => update(box), { passive: true });
      resized.observe(box);
      resized.observe(table);
      update(box);
    }
  }

  // Boxes that arrive later (an explorer's grids, re-drawn at every step) are watched as they come.
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; watch(); });
  }).observe(document.body, { childList: true, subtree: true });
  watch();
})();
