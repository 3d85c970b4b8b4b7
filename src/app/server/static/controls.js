// Keyboard patterns of the WAI-ARIA practices for the playground's radio groups and tabs: a
// group is one Tab stop (roving tabindex: only its chosen item has tabindex 0), the arrow
// keys move to the next or previous item and choose it, Home and End to the first and last.
"use strict";

const ARROW_STEPS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

// Only the chosen item (the first when none is) takes part in the Tab order.
function rove(container, selector, attribute) {
  const items = [...container.querySelectorAll(selector)];
  const chosen = items.find((item) => item.getAttribute(attribute) === "true") || items[0];
  for (const item of items) item.tabIndex = item === chosen ? 0 : -1;
}

// Arrow keys over ``container``'s items (``selector``), chosen by ``attribute``
// (aria-checked or aria-selected). Choosing is the item's own click, so the keyboard and the
// mouse do the same; items rebuilt by that click are found again by their place.
function roving(container, selector, attribute) {
  container.addEventListener("keydown", (event) => {
    const items = [...container.querySelectorAll(selector)].filter((item) => !item.disabled);
    const at = items.indexOf(document.activeElement);
    if (at < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
    let to;
    if (event.key in ARROW_STEPS) to = (at + ARROW_STEPS[event.key] + items.length) % items.length;
    else if (event.key === "Home") to = 0;
    else if (event.key === "End") to = items.length - 1;
    else return;
    event.preventDefault();
    items[to].click();
    const now = [...container.querySelectorAll(selector)];
    (now[to] || now[0]).focus();
  });
  new MutationObserver(() => rove(container, selector, attribute)).observe(container, {
    subtree: true, childList: true, attributes: true, attributeFilter: [attribute],
  });
  rove(container, selector, attribute);
}
