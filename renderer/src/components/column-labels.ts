/**
 * On narrow windows a `.table` stacks into a list (styles.css, max-width 720px) and its header
 * row is hidden: each cell then needs its column's name. This ref callback gives every body
 * cell a `data-label` from its column's header text (shown by CSS `::before` when stacked) and
 * keeps it so while rows come and go. Cells that set their own `data-label` keep it; columns
 * with an empty header (actions) get none.
 *
 * Usage: `<table className="table" ref={columnLabels}>` (React 19 runs the returned cleanup).
 */
export function columnLabels(table: HTMLTableElement | null): (() => void) | undefined {
  if (!table) return undefined;
  const label = () => {
    const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent?.trim() ?? '');
    for (const row of table.querySelectorAll('tbody tr')) {
      [...row.children].forEach((cell, index) => {
        const text = headers[index];
        if (!text || (cell.hasAttribute('data-label') && !cell.hasAttribute('data-auto-label'))) return;
        if (cell.getAttribute('data-label') === text) return;
        cell.setAttribute('data-label', text);
        cell.setAttribute('data-auto-label', '');
      });
    }
  };
  label();
  const observer = new MutationObserver(label);
  observer.observe(table, { childList: true, subtree: true });
  return () => observer.disconnect();
}
