// The filter of the grid and the chooser of the diff index. Both work on
// what the page already holds: the filter only sets rows' hidden
// property, the chooser only copies options and sets an href and a text
// from attributes the site wrote. Nothing is fetched, evaluated or parsed
// as markup, so the page needs no escaping here; without this script both
// forms stay hidden and the page is whole.
(() => {
  "use strict";
  const grid = document.getElementById("grid"), find = document.getElementById("find");
  if (grid && find) {
    const path = find.elements.path, verdict = find.elements.verdict, impl = find.elements.impl;
    const shown = document.getElementById("shown"), notRun = find.dataset.notRun;
    const rows = Array.from(grid.tBodies[0].rows, tr => ({
      tr, path: tr.cells[0].textContent.toLowerCase(),
      verdicts: Array.from(tr.cells, td => td.textContent).slice(1),
    }));
    const apply = () => {
      const words = path.value.toLowerCase().split(/\s+/).filter(w => w !== "");
      const v = verdict.value, column = impl.value === "" ? -1 : Number(impl.value);
      let n = 0;
      for (const r of rows) {
        let show = words.every(w => r.path.includes(w));
        if (show && (v !== "" || column >= 0)) {
          const cells = column >= 0 ? [r.verdicts[column]] : r.verdicts;
          show = cells.some(x => v === "" ? x !== notRun : x === v);
        }
        if (r.tr.hidden === show) r.tr.hidden = !show;
        if (show) n++;
      }
      shown.textContent = n + " of " + rows.length + " fixtures shown";
    };
    // Keys typed within one frame filter once.
    let pending = false;
    find.addEventListener("input", () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => { pending = false; apply(); });
    });
    find.addEventListener("submit", e => e.preventDefault());
    find.hidden = false;
    apply();
  }
  const compare = document.getElementById("compare");
  if (compare) {
    const base = compare.elements.base, head = compare.elements.head;
    const link = document.getElementById("pair-page"), command = document.getElementById("pair-command");
    for (const o of base.options) head.append(o.cloneNode(true));
    if (base.options.length > 1) base.selectedIndex = 1;
    const resolve = () => {
      const b = base.selectedOptions[0], h = head.selectedOptions[0];
      if (!b || !h) return;
      let page = "";
      if (h.dataset.prev === b.value) page = h.dataset.page;
      link.hidden = page === "";
      if (page !== "") link.href = page;
      command.textContent = "drp2-fixtures diff " + b.dataset.arg + " " + h.dataset.arg;
    };
    compare.addEventListener("input", resolve);
    compare.addEventListener("submit", e => e.preventDefault());
    compare.hidden = false;
    resolve();
  }
})();
