"""What a learner's first screen holds, as drawn: MEASURE finds the controls, the results, the
grids' fit and the charts' text sizes of a page in the window (its main block scrolled to the
top). Read by tests/browser/test_accessibility.py, which measures each page's first screen in
its visit (1400 × 900, and 390 px wide: the phone's 844 px screen is judged from the same
layout), and by tests/browser/test_first_screen.py (every grid at its largest).
"""

from __future__ import annotations

DESKTOP, PHONE = (1400, 900), (390, 844)
RESULT_SEEN = 200  # px of a result on screen (or half of it, if it is shorter)
MIN_CHART_FONT = 11

# Where things are on the page as drawn, with the main block scrolled to its top: controls
# (grid cells inside their shadow roots too), results, the grids' fit, the charts' text sizes.
MEASURE = """() => {
  const main = document.querySelector('[data-testid=stMain]');
  main.scrollTop = 0;
  const box = el => { const r = el.getBoundingClientRect();
                      return {top: r.top, bottom: r.bottom, width: r.width, height: r.height}; };
  const shown = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const hosts = Array.from(main.querySelectorAll('*')).filter(el => el.shadowRoot);
  const grids = hosts.flatMap(h => Array.from(h.shadowRoot.querySelectorAll('table[role=grid]')))
      .filter(shown);
  const cells = hosts.flatMap(h => Array.from(h.shadowRoot.querySelectorAll('input')));
  const worded = b => (b.innerText || '').trim().length > 0;
  const controls = [
      ...main.querySelectorAll('input:not([type=hidden]), textarea, [role=slider]'),
      ...Array.from(main.querySelectorAll('button')).filter(worded),
      ...cells,
  ].filter(el => shown(el) && !el.disabled && !el.closest('details:not([open])'))
   .map(el => ({...box(el), what: el.getAttribute('aria-label') || el.tagName,
                editable: el.tagName !== 'BUTTON'}));
  const results = Array.from(main.querySelectorAll(
      '.js-plotly-plot, [data-testid=stDataFrame], [data-testid=stTable]')).filter(shown)
      .map(el => ({...box(el), what: el.classList.contains('js-plotly-plot') ? 'chart' : 'table'}));
  const fit = grids.map(g => { const scroll = g.closest('.cg-scroll') || g.parentElement;
      const numbers = Array.from(g.querySelectorAll('input[type=text]'));
      return {name: g.getAttribute('aria-label'), ...box(g),
              scrolls: scroll.scrollWidth > scroll.clientWidth + 1,
              room: scroll.clientWidth,
              columns: g.querySelectorAll('th[role=columnheader]').length,
              cut: numbers.filter(i => i.scrollWidth > i.clientWidth + 1).map(i => i.value),
              font: numbers.length ? Math.min(...numbers.map(
                  i => parseFloat(getComputedStyle(i).fontSize))) : null,
              cell: numbers.length ? Math.min(...numbers.map(i => Math.min(
                  i.getBoundingClientRect().width, i.getBoundingClientRect().height))) : null};
      });
  const fonts = Array.from(main.querySelectorAll('.js-plotly-plot .main-svg text'))
      .filter(t => t.textContent.trim() && shown(t))
      .map(t => [parseFloat(getComputedStyle(t).fontSize), t.textContent.slice(0, 20)]);
  return {height: main.scrollHeight, controls, results, grids: fit, fonts};
}"""


def seen(result: dict, bottom: float) -> bool:
    """Whether enough of `result` lies above `bottom` (px from the window's top)."""
    return bottom - result["top"] >= min(RESULT_SEEN, result["height"] / 2)
