// The training page's attention player: the snapshots' attention heatmaps, drawn in the
// browser, with the step slider and Play under them.
//
// The server sends every frame once (`data.steps`: the snapshot steps; each panel's `z`: one
// flat row-major list of weights × 100, rounded, per frame). Play and the slider redraw the
// cells here, with no server round trip per frame; the server is told the step (state value
// `step`) when the learner stops: Pause, the end of the frames, or the slider let go (a key
// press on it counts as let go). In picking mode (`data.pick`: predict before training) a click
// on a cell of the picking panel chooses that input for the cell's row: state value `pick`, the
// chosen column per row (null: none yet). Nothing here computes a number: the server does.

const STATES = new WeakMap();
// Matplotlib's "Reds" (Plotly's), the scale of every weights heatmap of the app: 0 … 1.
const REDS = [
  [255, 245, 240],
  [254, 224, 210],
  [252, 187, 161],
  [252, 146, 114],
  [251, 106, 74],
  [239, 59, 44],
  [203, 24, 29],
  [165, 15, 21],
  [103, 0, 13],
];
const STYLE = `
.tp-root { font-family: inherit; color: inherit; }
.tp-panels { display: flex; flex-wrap: wrap; gap: 0.75rem 1.25rem; }
.tp-panel { min-width: 0; flex: 0 1 auto; }
.tp-many .tp-panel { flex: 1 1 40%; }
.tp-title { font-size: 0.875rem; font-weight: 600; margin: 0 0 0.25rem 0; }
.tp-grid { display: grid; gap: 1px; align-items: center; font-size: 0.75rem; }
.tp-label { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; padding: 0 0.25rem; }
.tp-col { text-align: center; writing-mode: vertical-rl; transform: rotate(180deg);
  max-height: 5.5rem; padding: 0.15rem 0; }
.tp-col.tp-flat { writing-mode: horizontal-tb; transform: none; }
.tp-cell { aspect-ratio: 1; min-width: 0; overflow: hidden; display: flex; align-items: center; justify-content: center;
  border-radius: 2px; font-variant-numeric: tabular-nums; box-sizing: border-box; }
.tp-ring { outline: 3px solid #0072B2; outline-offset: -3px; }
.tp-pick { cursor: pointer; }
.tp-picked { outline: 3px dashed #009E73; outline-offset: -3px; }
.tp-controls { display: flex; align-items: center; gap: 0.75rem; margin-top: 0.5rem; }
.tp-controls input[type=range] { flex: 1; accent-color: #ff4b4b; }
.tp-button { font: inherit; padding: 0.25rem 0.9rem; border-radius: 0.5rem; cursor: pointer;
  border: 1px solid rgba(128, 128, 128, 0.5); background: transparent; color: inherit; }
.tp-step { min-width: 6.5rem; font-variant-numeric: tabular-nums; }
`;

function colour(value) {
  const x = Math.max(0, Math.min(1, value / 100)) * (REDS.length - 1);
  const i = Math.min(Math.floor(x), REDS.length - 2);
  const f = x - i;
  const c = REDS[i].map((a, k) => Math.round(a + f * (REDS[i + 1][k] - a)));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

class Player {
  constructor(root, setStateValue) {
    this.root = root;
    this.setStateValue = setStateValue;
    this.timer = null;
    this.index = 0;
    this.serverIndex = null;
    this.signature = null;
  }

  update(data) {
    const signature = JSON.stringify([data.steps, data.panels.map((p) => [p.title, p.x, p.y])]);
    const rebuilt = signature !== this.signature || JSON.stringify(data.pick) !== this.pickSig;
    this.data = data;
    if (rebuilt) {
      this.stop(false);
      this.signature = signature;
      this.pickSig = JSON.stringify(data.pick);
      this.build();
    }
    if (data.index !== this.serverIndex) {  // the server moved the step (address, settings)
      this.serverIndex = data.index;
      this.index = data.index;
    }
    this.index = Math.max(0, Math.min(this.index, data.steps.length - 1));
    this.draw();
  }

  build() {
    const { data } = this;
    this.root.replaceChildren();
    const style = element("style");
    style.textContent = STYLE;
    const box = element("div", "tp-root");
    this.box = box;
    const panels = element("div", data.panels.length > 1 ? "tp-panels tp-many" : "tp-panels");
    this.cells = [];
    this.labels = [];
    data.panels.forEach((panel, p) => panels.append(this.panel(panel, p)));
    box.append(panels);
    if (data.steps.length > 1 && !data.live) box.append(this.controls());
    else this.slider = null;
    this.root.append(style, box);
  }

  panel(panel, p) {
    const { data } = this;
    const rows = panel.y.length;
    const cols = panel.x.length;
    const node = element("div", "tp-panel");
    node.setAttribute("role", "img");
    const title = element("div", "tp-title", panel.title);
    const grid = element("div", "tp-grid");
    grid.style.gridTemplateColumns = `minmax(2.5rem, max-content) repeat(${cols}, minmax(10px, 44px))`;
    const cells = [];
    const picking = data.pick && data.pick.panel === p;
    for (let r = 0; r < rows; r++) {
      grid.append(element("div", "tp-label", panel.y[r]));
      for (let c = 0; c < cols; c++) {
        const cell = element("div", "tp-cell");
        if (panel.rings && panel.rings.some(([rr, cc]) => rr === r && cc === c)) {
          cell.classList.add("tp-ring");
        }
        if (picking) {
          cell.classList.add("tp-pick");
          if (data.pick.chosen[r] === c) cell.classList.add("tp-picked");
          cell.setAttribute("role", "button");
          cell.tabIndex = 0;
          const choose = () => {
            const chosen = data.pick.chosen.slice();
            chosen[r] = c;
            this.setStateValue("pick", chosen);
          };
          cell.addEventListener("click", choose);
          cell.addEventListener("keydown", (event) => {
            if (event.key === "Enter" || event.key === " ") {
              event.preventDefault();
              choose();
            }
          });
        }
        cells.push(cell);
        grid.append(cell);
      }
    }
    grid.append(element("div"));
    // short labels (positions alone: several examples, one a row) read upright; longer ones
    // ("3 · C→5") stand on their side so that every column keeps its width
    const flat = panel.x.every((label) => String(label).length <= 3) ? " tp-flat" : "";
    for (let c = 0; c < cols; c++) grid.append(element("div", `tp-label tp-col${flat}`, panel.x[c]));
    this.cells.push(cells);
    this.labels.push({ node, panel, cells });
    node.append(title, grid);
    return node;
  }

  controls() {
    const { data } = this;
    const row = element("div", "tp-controls");
    const button = element("button", "tp-button", data.words.play);
    button.type = "button";
    button.dataset.testid = "train-play";
    button.addEventListener("click", () => (this.timer ? this.stop(true) : this.play()));
    const slider = element("input");
    slider.type = "range";
    slider.min = 0;
    slider.max = data.steps.length - 1;
    slider.step = 1;
    slider.setAttribute("aria-label", data.words.slider);
    slider.addEventListener("input", () => {
      this.stop(false);
      this.index = Number(slider.value);
      this.draw();
    });
    slider.addEventListener("change", () => this.tell());
    const step = element("output", "tp-step");
    row.append(button, slider, step);
    this.button = button;
    this.slider = slider;
    this.stepText = step;
    return row;
  }

  play() {
    const { data } = this;
    if (this.index >= data.steps.length - 1) this.index = 0;
    this.button.textContent = data.words.pause;
    this.timer = setInterval(() => {
      if (!this.root.isConnected) {
        this.stop(false);
        return;
      }
      if (this.index >= data.steps.length - 1) {
        this.stop(true);
        return;
      }
      this.index += 1;
      this.draw();
    }, 1000 / (data.fps || 12));
  }

  stop(tell) {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    if (this.button) this.button.textContent = this.data.words.play;
    if (tell) this.tell();
  }

  tell() {
    this.serverIndex = this.index;
    this.setStateValue("step", this.data.steps[this.index]);
  }

  draw() {
    const { data, index } = this;
    const step = data.steps[index];
    const stepText = data.words.step.replace("{step}", String(step));
    data.panels.forEach((panel, p) => {
      const frame = panel.z[Math.min(index, panel.z.length - 1)];
      const cells = this.cells[p];
      const { node } = this.labels[p];
      const size = cells.length ? cells[0].offsetWidth : 0; // the cells' width as laid out
      for (let i = 0; i < cells.length; i++) {
        const value = frame[i];
        const cell = cells[i];
        cell.style.background = colour(value);
        cell.style.color = value > 55 ? "#ffffff" : "#262730";
        cell.textContent = size >= 30 ? (value >= 100 ? "1" : `.${String(value).padStart(2, "0")}`) : "";
        cell.title = `${panel.y[Math.floor(i / panel.x.length)]}, ${panel.x[i % panel.x.length]}: ${(value / 100).toFixed(2)}`;
      }
      node.setAttribute("aria-label", `${panel.title}, ${stepText}`);
    });
    if (this.slider) {
      this.slider.value = String(index);
      this.stepText.textContent = stepText;
      this.box.dataset.step = String(step);
    }
    this.box.dataset.frame = String(index);
    this.frames = (this.frames || 0) + 1;
    this.box.dataset.drawn = String(this.frames);
  }
}

export default function (component) {
  const { parentElement, data, setStateValue } = component;
  let player = STATES.get(parentElement);
  if (!player) {
    player = new Player(parentElement, setStateValue);
    STATES.set(parentElement, player);
  }
  player.setStateValue = setStateValue;
  player.update(data);
}
