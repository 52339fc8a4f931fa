// The Source page's listings. Every tab but the first of each group arrives inside
// <noscript class="workshop-listing"> (workshop_site.source_page.deferred): a browser that runs
// scripts keeps that as one piece of text, so the page opens with three listings as elements
// instead of every module's (57,795 elements, nearly all of them in tabs nobody had opened). A
// listing becomes elements the first time its tab is shown, however it is shown (picked by mouse
// or keyboard, every tab at once for print). Without scripts the browser reads the <noscript> as
// markup: every tab holds its listing from the start.
//
// Material set up the listings it found at load: a copy button on each, and a code block that
// scrolls sideways takes focus (where the pointer can hover, as Material does it). A listing put in
// later gets the same here: Material's own button, copied from a listing it set up and aimed at
// this one's code (Material's copying listens on the whole page, so the copy works).
(() => {
  const waiting = new Map();   // a tab's block -> the <noscript> that holds its listing
  let made = 0;   // listings put in so far (each code block's id)

  const scrolls = new ResizeObserver((entries) => {
    const hover = matchMedia("(hover)").matches;
    for (const { target: code } of entries) {
      if (hover && code.scrollWidth > code.clientWidth) code.setAttribute("tabindex", "0");
      else code.removeAttribute("tabindex");
    }
  });

  function setUp(block) {
    const model = document.querySelector(".workshop-source-tabs pre > nav.md-code__nav");
    for (const code of block.querySelectorAll("pre > code")) {
      const pre = code.parentElement;
      pre.id = `workshop-listing-${++made}`;
      if (model) {
        const nav = model.cloneNode(true);
        for (const button of nav.querySelectorAll("[data-clipboard-target]"))
          button.dataset.clipboardTarget = `#${pre.id} > code`;
        code.before(nav);
      }
      scrolls.observe(code);
    }
  }

  function show(block) {
    const held = waiting.get(block);
    if (!held) return;
    waiting.delete(block);
    shown.unobserve(block);
    const markup = document.createElement("template");
    markup.innerHTML = held.textContent;
    held.replaceWith(markup.content);
    setUp(block);
  }

  // a tab's block has no size while its tab is not picked: it is put in once it has one
  const shown = new ResizeObserver((entries) => {
    for (const e of entries) if (e.contentRect.width > 0) show(e.target);
  });
  for (const held of document.querySelectorAll("noscript.workshop-listing")) {
    waiting.set(held.parentElement, held);
    shown.observe(held.parentElement);
  }
  addEventListener("beforeprint", () => { for (const block of [...waiting.keys()]) show(block); });
})();
