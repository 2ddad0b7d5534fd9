// The matrix editor's browser half: a <table role="grid"> of real <input> cells.
//
// The server sends the cells as text (`data.cells`), the words in the page's language
// (`data.text`), and the last edit it applied (`data.ack`). The browser sends edits as one
// state value, `edit` = {token, n, entries}: every entry not yet acknowledged, so that an edit
// never depends on the run that carried the one before it (Streamlit may merge two requests
// and keep only the newer widget state). The server applies entries numbered above what it
// applied for this token, once each. Nothing here parses a number: the server decides.
//
// Commit: Enter, Tab, leaving the cell (a click anywhere else blurs it first), one message,
// no delay. Scrub (drag sideways, Alt+Up/Down) commits as fast as the round trip allows: one
// scrub step on its way at a time. The next goes once the server has answered the last one: its
// acknowledgement has come back and a chart has the numbers it brought (the kit's charts say
// "attention:chart-data"; the browser draws them while the server computes the next), or
// SETTLE_MS after the acknowledgement when no chart changed, or at the latest STALL_MS after it
// was sent. Meanwhile the hand's newest value waits and
// replaces any older one: the latest value always wins, and the last is always sent.

const SETTLE_MS = 120; // after an acknowledgement that no chart followed
const STALL_MS = 1500; // a step that got no answer: send the newest anyway (it carries all)
const SCRUB_PX = 8; // pointer travel per step of the page's precision
const MAX_PENDING = 100;
const GRIDS = new WeakMap();
// Fitting a grid to its column (CellGrid.fit): the narrowest a number cell gets is this text's
// width (room to type a short number in an empty cell), at these font sizes (of the page's).
const FIT_SAMPLE = "\u22120.0";
const FIT_SCALES = [1, 0.875, 0.8125];
const FIT_CARET = 3; // px for the caret after the text
const FIT_TOUCH = 32; // px: the narrowest a number cell gets, for a finger (WCAG 2.5.8 asks 24)

// A link to another page, clicked while an edit is on its way, waits until the server has
// taken the edit (it acknowledges it when it draws the grid again), at most HOLD_MS. Streamlit
// sends a page link's request with none of this page's widget states, and a request for the
// whole app stops the run in hand (`runner.fastReruns`): the edit's run, stopped before its
// callback has kept the edit, would lose it. A click that leaves a cell commits it (blur).
const HOLD_MS = 5000;
const LIVE = new Set(); // the grids on the page
let held = null; // {link, timer}: the link waiting for the edits
let releasing = false;

function editsOnTheirWay() {
  for (const grid of LIVE) {
    if (!grid.root.isConnected) LIVE.delete(grid);
    else if (grid.pending.length) return true;
  }
  return false;
}

function release() {
  if (!held) return;
  const { link, timer } = held;
  held = null;
  clearTimeout(timer);
  releasing = true;
  try {
    link.click(); // the same click, now for Streamlit's own handler
  } finally {
    releasing = false;
  }
}

window.addEventListener(
  "click",
  (event) => {
    if (releasing || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const link = event.composedPath().find((node) => node instanceof HTMLAnchorElement && node.href);
    if (!link || link.target === "_blank" || !editsOnTheirWay()) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (held) clearTimeout(held.timer);
    held = { link, timer: setTimeout(release, HOLD_MS) };
  },
  true, // before Streamlit's handler, which asks for the page at once
);

export default function (component) {
  const { parentElement, data, setStateValue } = component;
  let grid = GRIDS.get(parentElement);
  if (!grid) {
    grid = new CellGrid(parentElement);
    GRIDS.set(parentElement, grid);
  }
  LIVE.add(grid);
  grid.send = setStateValue;
  grid.update(data || {});
}

class CellGrid {
  constructor(root) {
    this.root = root;
    this.token = Math.random().toString(36).slice(2, 12);
    this.n = 0;
    this.pending = []; // entries sent but not yet acknowledged
    this.inputs = []; // [row][col] -> <input>
    this.shapeKey = "";
    this.scrub = null; // {n, acked, timer}: the scrub step on its way
    this.scrubNext = null; // the input whose newer value waits for it
    this.wrap = document.createElement("div");
    this.wrap.className = "cg-wrap";
    root.appendChild(this.wrap);
  }

  // --- from the server ------------------------------------------------------------------

  update(data) {
    this.data = data;
    const ack = data.ack || {};
    const acked = ack.token === this.token ? ack.n || 0 : 0;
    if (ack.token === this.token) this.pending = this.pending.filter((e) => e.n > acked);
    if (this.scrub && acked >= this.scrub.n && !this.scrub.acked) {
      this.scrub.acked = true;
      if (this.scrub.charts) queueMicrotask(() => this.scrubDone());
      else this.scrubWait(SETTLE_MS);
    }
    if (held && !editsOnTheirWay()) setTimeout(release, 0); // after this draw
    const shapeKey = JSON.stringify([data.name, data.rows, data.cols, data.text, data.addRows]);
    if (shapeKey !== this.shapeKey) {
      const focus = this.focusedPosition();
      this.build();
      this.shapeKey = shapeKey;
      if (focus) this.focusCell(focus[0], focus[1], false);
    }
    this.fill();
    this.watchWidth();
    this.fit(); // the texts may be longer or shorter now
  }

  build() {
    const d = this.data;
    this.wrap.textContent = "";
    this.scroll = el("div", "cg-scroll");
    this.table = el("table", "cg-table");
    this.table.setAttribute("role", "grid");
    this.table.setAttribute("aria-label", d.name || "");
    if (d.help) this.table.setAttribute("aria-description", d.help);
    this.inputs = [];
    this.tds = []; // [row][col] -> the <td> holding the input (moved, never remade, by arrange)
    (d.rows || []).forEach((rowLabel, i) => {
      const line = [];
      const tds = [];
      (d.cols || []).forEach((col, j) => {
        const td = el("td", "cg-cell");
        td.setAttribute("role", "gridcell");
        const input = this.makeInput(col, i, j, rowLabel);
        td.appendChild(input);
        tds.push(td);
        line.push(input);
      });
      this.inputs.push(line);
      this.tds.push(tds);
    });
    this.deletes = d.addRows ? (d.rows || []).map((rowLabel, i) => this.deleteButton(i, rowLabel)) : [];
    this.ruler = el("div", "cg-ruler");
    this.ruler.setAttribute("aria-hidden", "true");
    this.perBlock = 0; // every column in one block
    this.arrange();
    this.scroll.appendChild(this.table);
    this.scroll.appendChild(this.ruler);
    this.wrap.appendChild(this.scroll);
    this.wrap.appendChild(this.toolbar());
    this.fitWidth = -1;
  }

  // The table's rows: the columns in blocks of `perBlock` (0: all in one), each block under
  // its own header row, so that a grid wider than its column folds instead of scrolling.
  // The cells keep their <input>s (and the focus, and what is being typed).
  arrange() {
    const d = this.data;
    const text = d.text || {};
    const cols = d.cols || [];
    const per = this.perBlock > 0 ? this.perBlock : Math.max(1, cols.length);
    const table = this.table;
    table.textContent = "";
    table.classList.toggle("cg-folded", per < cols.length);
    for (let start = 0; start < Math.max(1, cols.length); start += per) {
      const end = Math.min(cols.length, start + per);
      const last = end >= cols.length;
      const headRow = el("tr");
      headRow.setAttribute("role", "row");
      // A header cell with no text reads as an unnamed column to a screen reader: the empty
      // corners are plain cells (axe's empty-table-header).
      headRow.appendChild(this.corner(text.corner));
      cols.slice(start, end).forEach((col) => {
        const th = el("th", "cg-colhead");
        th.setAttribute("role", "columnheader");
        th.setAttribute("scope", "col");
        th.textContent = col.label;
        headRow.appendChild(th);
      });
      if (d.addRows && last) headRow.appendChild(this.corner(""));
      const head = el(start === 0 ? "thead" : "tbody", start === 0 ? "" : "cg-foldhead");
      head.appendChild(headRow);
      table.appendChild(head);
      const body = el("tbody");
      (d.rows || []).forEach((rowLabel, i) => {
        const tr = el("tr");
        tr.setAttribute("role", "row");
        const th = el("th", "cg-rowhead");
        th.setAttribute("role", "rowheader");
        th.setAttribute("scope", "row");
        th.textContent = rowLabel;
        tr.appendChild(th);
        this.tds[i].slice(start, end).forEach((td) => tr.appendChild(td));
        if (d.addRows && last) tr.appendChild(this.deletes[i]);
        body.appendChild(tr);
      });
      table.appendChild(body);
    }
  }

  // --- the grid's width -----------------------------------------------------------------
  //
  // A grid wider than its column (8 columns on a phone, W_a's 16 anywhere) is drawn
  // narrower, in this order, until it fits: number cells just as wide as their longest text
  // (at least FIT_SAMPLE's, and FIT_TOUCH px), at the page's font size, then smaller
  // (FIT_SCALES); else its columns fold into blocks, at the largest of those sizes that has
  // the fewest blocks. Any room left widens the cells back, up to their usual width. Nothing
  // is cut: every cell shows its whole text; a grid scrolls only if one column of it is wider
  // than the screen.

  watchWidth() {
    if (this.observer || typeof ResizeObserver === "undefined") return;
    // A change of the column's width refits the grid in the next frame (refitting inside
    // the observer's callback would resize what it observes in the same frame).
    this.observer = new ResizeObserver(() => {
      if (!this.wrap.isConnected) return this.observer.disconnect();
      if (this.scroll && this.scroll.clientWidth !== this.fitWidth) requestAnimationFrame(() => this.fit());
    });
    this.observer.observe(this.wrap);
  }

  fit() {
    const scroll = this.scroll;
    const table = this.table;
    if (!scroll || !table || !scroll.isConnected) return;
    const style = getComputedStyle(scroll);
    const room = scroll.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    this.fitWidth = scroll.clientWidth;
    if (room <= 0) return; // not drawn (a hidden tab): fitted when it shows
    const numbers = this.inputs.flat().filter((input) => input.classList.contains("cg-number"));
    const cols = (this.data.cols || []).length;
    if (!numbers.length || !cols) return this.setFit(false, 1, 0, 0);
    // Widths are measured as the grid is arranged now (its blocks stay put until the choice
    // is made: moving a cell would take the focus from a learner typing into it): the grid
    // unfolded is as wide as what lies beside the cells and every column's cell.
    const cell = numbers[0].parentElement;
    const width = () => {
      const across = this.perBlock > 0 ? Math.min(this.perBlock, cols) : cols;
      const each = cell.offsetWidth;
      return { each, beside: table.offsetWidth - across * each };
    };
    this.setStyle(false, 1, 0);
    const usual = numbers[0].offsetWidth;
    let { each, beside } = width();
    if (beside + cols * each <= room) {
      this.setFit(false, 1, 0, 0);
      if (table.offsetWidth <= room) return;
    }
    // Up to their usual width, the cells share what room is left.
    const share = (narrow, across) =>
      Math.max(narrow, Math.min(usual, narrow + Math.floor((room - beside - across * each) / across)));
    const texts = [FIT_SAMPLE, ...numbers.map((input) => input.value)];
    const folds = [];
    for (const scale of FIT_SCALES) {
      const narrow = this.textWidth(texts, scale, numbers[0]);
      this.setStyle(true, scale, narrow);
      ({ each, beside } = width());
      if (beside + cols * each <= room) {
        this.setFit(true, scale, share(narrow, cols), 0);
        if (table.offsetWidth <= room) return;
        ({ each, beside } = width());
      }
      // Folded: as many columns a block as fit beside the row labels, blocks as even as can be.
      const blocks = Math.ceil(cols / Math.max(1, Math.floor((room - beside) / each)));
      const per = Math.ceil(cols / blocks);
      folds.push({ blocks, scale, narrow, cell: share(narrow, per), per });
    }
    // The fewest blocks, at the largest font that has that few.
    const fold = folds.reduce((best, next) => (next.blocks < best.blocks ? next : best));
    this.setFit(true, fold.scale, fold.cell, fold.per);
  }

  setStyle(compact, scale, cell) {
    this.wrap.classList.toggle("cg-compact", compact);
    this.wrap.style.setProperty("--cg-scale", String(scale));
    if (cell) this.wrap.style.setProperty("--cg-cell", `${cell}px`);
    else this.wrap.style.removeProperty("--cg-cell");
  }

  setFit(compact, scale, cell, perBlock) {
    this.setStyle(compact, scale, cell);
    if (perBlock === this.perBlock) return;
    const focus = this.focusedPosition();
    this.perBlock = perBlock;
    this.arrange();
    if (focus) this.focusCell(focus[0], focus[1], false);
  }

  // The width of a number cell that shows the longest of `texts` whole, at `scale`.
  textWidth(texts, scale, input) {
    this.wrap.style.setProperty("--cg-scale", String(scale));
    const ruler = this.ruler;
    ruler.textContent = "";
    new Set(texts).forEach((text) => {
      const line = el("span");
      line.textContent = text;
      ruler.appendChild(line);
    });
    const width = ruler.scrollWidth;
    const style = getComputedStyle(input);
    const sides = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    return Math.max(FIT_TOUCH, Math.ceil(width + sides + FIT_CARET));
  }

  makeInput(col, i, j, rowLabel) {
    const d = this.data;
    const input = el("input", `cg-input cg-${col.kind || "number"}`);
    input.type = col.kind === "check" ? "checkbox" : "text";
    const template = (d.text || {}).cell || "{matrix}, row {row}, column {col}";
    input.setAttribute(
      "aria-label",
      template.replace("{matrix}", d.name || "").replace("{row}", rowLabel).replace("{col}", col.name || col.label),
    );
    input.dataset.row = String(i);
    input.dataset.col = String(j);
    if (input.type === "text") {
      input.autocomplete = "off";
      input.spellcheck = false;
      if (col.kind === "number") input.inputMode = "decimal";
      input.addEventListener("focus", () => input.select());
      input.addEventListener("input", () => (input.dataset.dirty = "1"));
      input.addEventListener("blur", () => this.commit(input));
      input.addEventListener("paste", (event) => this.paste(event, input));
      if (col.kind === "number") this.scrubbable(input);
    } else {
      input.addEventListener("change", () => this.commit(input));
    }
    input.addEventListener("keydown", (event) => this.key(event, input));
    return input;
  }

  corner(label) {
    const cell = el(label ? "th" : "td", "cg-corner");
    cell.setAttribute("role", label ? "columnheader" : "gridcell");
    cell.textContent = label || "";
    return cell;
  }

  deleteButton(i, rowLabel) {
    const td = el("td", "cg-cell");
    const button = el("button", "cg-button cg-delete");
    button.type = "button";
    button.textContent = "−";
    const label = (this.data.text || {}).delete_row || "Delete row {row}";
    button.setAttribute("aria-label", label.replace("{row}", rowLabel));
    button.addEventListener("click", () => this.push({ delete_row: i }));
    td.appendChild(button);
    return td;
  }

  toolbar() {
    const text = this.data.text || {};
    const bar = el("div", "cg-toolbar");
    if (this.data.addRows) {
      const add = el("button", "cg-button");
      add.type = "button";
      add.textContent = text.add_row || "+ row";
      add.disabled = !this.data.canAdd;
      add.addEventListener("click", () => this.push({ add_row: true }));
      bar.appendChild(add);
    }
    const copy = el("button", "cg-button");
    copy.type = "button";
    copy.textContent = text.copy || "Copy";
    const status = el("span", "cg-status");
    status.setAttribute("role", "status");
    copy.addEventListener("click", () => this.copy(status));
    bar.appendChild(copy);
    bar.appendChild(status);
    return bar;
  }

  fill() {
    const d = this.data;
    const cells = d.cells || [];
    const invalid = d.invalid || {};
    const tint = d.tint || null;
    const pendingCells = new Set();
    this.pending.forEach((entry) =>
      (entry.cells || []).forEach(([i, j]) => pendingCells.add(`${i},${j}`)),
    );
    this.inputs.forEach((line, i) =>
      line.forEach((input, j) => {
        const where = `${i},${j}`;
        const bad = invalid[where];
        const shown = bad ? bad.text : cellText(cells, i, j);
        const busy = document.activeElement === input || this.root.activeElement === input;
        if (input.type === "checkbox") {
          input.checked = shown === "1";
          input.dataset.committed = shown;
        } else if (!pendingCells.has(where) && !(busy && input.dataset.dirty === "1")) {
          if (input.value !== shown) input.value = shown;
          input.dataset.committed = shown;
          input.dataset.dirty = "0";
        }
        input.dataset.server = cellText(cells, i, j);
        if (bad) {
          input.setAttribute("aria-invalid", "true");
          input.title = bad.message;
        } else {
          input.removeAttribute("aria-invalid");
          input.removeAttribute("title");
        }
        const heat = tint && tint[i] ? tint[i][j] : null;
        input.parentElement.style.setProperty("--cg-heat", heatColor(heat));
      }),
    );
  }

  // --- to the server --------------------------------------------------------------------

  commit(input) {
    const text = input.type === "checkbox" ? (input.checked ? "1" : "0") : input.value;
    if (text === input.dataset.committed) return;
    input.dataset.committed = text;
    input.dataset.dirty = "0";
    this.push({ cells: [[Number(input.dataset.row), Number(input.dataset.col), text]] });
  }

  push(entry) {
    this.n += 1;
    const d = this.data;
    const full = { ...entry, n: this.n, rows: d.rows || [], cols: (d.cols || []).map((c) => c.label) };
    const last = this.pending[this.pending.length - 1];
    if (last && sameCell(last, full)) this.pending.pop(); // a scrub's steps replace each other
    this.pending.push(full);
    if (this.pending.length > MAX_PENDING) this.pending.shift();
    if (this.send) this.send("edit", { token: this.token, n: this.n, entries: this.pending });
  }

  paste(event, input) {
    const text = (event.clipboardData || window.clipboardData).getData("text");
    if (!/[\t\n\r,;]/.test(text.trim())) return; // one value: an ordinary edit of this cell
    event.preventDefault();
    this.push({ paste: text, at: [Number(input.dataset.row), Number(input.dataset.col)] });
  }

  copy(status) {
    const lines = (this.data.cells || []).map((row) => row.join("\t"));
    const header = (this.data.cols || []).map((c) => c.label).join("\t");
    const tsv = [header, ...lines].join("\n") + "\n";
    const done = () => (status.textContent = (this.data.text || {}).copied || "Copied");
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(tsv).then(done, () => this.copyByHand(tsv, done));
    } else {
      this.copyByHand(tsv, done);
    }
    this.wrap.dataset.copied = tsv; // what was copied, for a reader of the page (and tests)
  }

  copyByHand(tsv, done) {
    const area = document.createElement("textarea");
    area.value = tsv;
    this.wrap.appendChild(area);
    area.select();
    try {
      if (document.execCommand("copy")) done();
    } finally {
      area.remove();
    }
  }

  // --- keys and the pointer -------------------------------------------------------------

  key(event, input) {
    const i = Number(input.dataset.row);
    const j = Number(input.dataset.col);
    const text = input.type === "text";
    if (event.key === "Escape") {
      if (text) input.value = input.dataset.committed || "";
      input.dataset.dirty = "0";
      if (text) input.select();
      event.preventDefault();
      return;
    }
    if (event.key === "Enter") {
      event.preventDefault();
      this.commit(input);
      this.focusCell(event.shiftKey ? i - 1 : i + 1, j, true);
      return;
    }
    if (event.altKey && (event.key === "ArrowUp" || event.key === "ArrowDown")) {
      if (text && input.classList.contains("cg-number")) {
        event.preventDefault();
        this.step(input, event.key === "ArrowUp" ? 1 : -1);
      }
      return;
    }
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const move = moves[event.key];
    if (!move || event.shiftKey || event.ctrlKey || event.metaKey || event.isComposing) return;
    if (text && move[1] !== 0 && !atEdge(input, move[1])) return; // the caret moves in the text
    event.preventDefault();
    this.commit(input);
    this.focusCell(i + move[0], j + move[1], true);
  }

  focusCell(i, j, clamp) {
    if (!this.inputs.length) return;
    if (clamp) {
      i = Math.max(0, Math.min(this.inputs.length - 1, i));
      j = Math.max(0, Math.min(this.inputs[0].length - 1, j));
    }
    const target = this.inputs[i] && this.inputs[i][j];
    if (target) target.focus();
  }

  focusedPosition() {
    const active = this.root.activeElement || document.activeElement;
    if (!active || !active.dataset || active.dataset.row === undefined) return null;
    if (!this.wrap.contains(active)) return null;
    return [Number(active.dataset.row), Number(active.dataset.col)];
  }

  step(input, direction) {
    const start = readPlain(input.value);
    if (start === null) return;
    input.value = formatStep(start + direction * (this.data.step || 1), this.data.step || 1);
    input.dataset.dirty = "1";
    this.throttledCommit(input);
  }

  throttledCommit(input) {
    if (this.scrub) {
      this.scrubNext = input; // sent when the step on its way is drawn
      return;
    }
    const before = this.n;
    this.commit(input);
    if (this.n === before) return; // the same value: nothing sent
    this.scrub = { n: this.n, acked: false, charts: false, timer: null };
    this.scrubWait(STALL_MS);
    if (!this.onDrawn) {
      this.onDrawn = () => {
        if (!this.scrub) return;
        this.scrub.charts = true; // (the grid may hear its acknowledgement after the charts)
        if (this.scrub.acked) this.scrubDone();
      };
      window.addEventListener("attention:chart-data", this.onDrawn);
    }
  }

  scrubWait(ms) {
    clearTimeout(this.scrub.timer);
    this.scrub.timer = setTimeout(() => this.scrubDone(), ms);
  }

  // The step is answered: the newest value goes now, before the charts that answered are drawn
  // (they draw while the server computes the next step: live_chart.js draws after the widget
  // messages this commit schedules). It goes after this task's other chart messages, which
  // answer the step that is over, not the new one.
  scrubDone() {
    if (!this.scrub) return;
    clearTimeout(this.scrub.timer);
    this.scrub = null;
    const input = this.scrubNext;
    this.scrubNext = null;
    if (input && input.isConnected) {
      queueMicrotask(() => (this.scrub ? (this.scrubNext = input) : this.throttledCommit(input)));
    }
  }

  scrubbable(input) {
    let start = null;
    input.addEventListener("pointerdown", (event) => {
      if (document.activeElement === input || this.root.activeElement === input) return;
      const value = readPlain(input.value);
      if (value === null || event.button !== 0) return;
      start = { x: event.clientX, value, moved: false, id: event.pointerId };
    });
    input.addEventListener("pointermove", (event) => {
      if (!start || event.pointerId !== start.id) return;
      const dx = event.clientX - start.x;
      if (!start.moved && Math.abs(dx) < SCRUB_PX / 2) return;
      if (!start.moved) {
        start.moved = true;
        input.setPointerCapture(event.pointerId);
        input.classList.add("cg-scrubbing");
      }
      event.preventDefault();
      const step = this.data.step || 1;
      input.value = formatStep(start.value + Math.round(dx / SCRUB_PX) * step, step);
      input.dataset.dirty = "1";
      this.throttledCommit(input);
    });
    const end = (event) => {
      if (!start) return;
      const moved = start.moved;
      start = null;
      input.classList.remove("cg-scrubbing");
      if (moved) {
        event.preventDefault();
        this.commit(input);
      }
    };
    input.addEventListener("pointerup", end);
    input.addEventListener("pointercancel", end);
  }
}

function el(tag, className) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  return node;
}

function cellText(cells, i, j) {
  return cells[i] && cells[i][j] !== undefined && cells[i][j] !== null ? String(cells[i][j]) : "";
}

function sameCell(a, b) {
  return (
    a.cells && b.cells && a.cells.length === 1 && b.cells.length === 1 &&
    a.cells[0][0] === b.cells[0][0] && a.cells[0][1] === b.cells[0][1] &&
    JSON.stringify(a.rows) === JSON.stringify(b.rows) && JSON.stringify(a.cols) === JSON.stringify(b.cols)
  );
}

function atEdge(input, direction) {
  const all = input.selectionStart === 0 && input.selectionEnd === input.value.length;
  if (all) return true;
  if (input.selectionStart !== input.selectionEnd) return false;
  return direction < 0 ? input.selectionStart === 0 : input.selectionEnd === input.value.length;
}

// Only for the scrub's starting point: the server reads what is committed.
function readPlain(text) {
  const plain = String(text).trim().replace(/\u2212/g, "-").replace(",", ".");
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(plain)) return null;
  return Number(plain);
}

function formatStep(value, step) {
  const digits = Math.max(0, Math.min(10, Math.ceil(-Math.log10(step) - 1e-9)));
  const text = value.toFixed(digits);
  const plain = Number(text) === 0 ? "0" : text;
  return plain.replace("-", "\u2212");
}

function heatColor(heat) {
  if (heat === null || heat === undefined || !Number.isFinite(heat)) return "transparent";
  const share = Math.round(Math.min(1, Math.abs(heat)) * 30);
  const hue = heat >= 0 ? "var(--st-primary-color, #ff4b4b)" : "var(--st-blue-color, #1c83e1)";
  return `color-mix(in srgb, ${hue} ${share}%, transparent)`;
}
