// The kit's charts (attention_ui/kit/figures/live_chart.py): a Plotly figure drawn once into its
// element, then redrawn in place with Plotly.react whenever the server sends new numbers. The
// element, its hover layer and its mode bar stay; only what changed is drawn again.
//
// The server sends one JSON document as bytes: {figure, config, alt, plotly} where `plotly` is
// the address of plotly.js relative to the app's root: the plotly package's own file, kept in the
// project's static/vendor/ under its version's name, served by Streamlit at app/static/. Loaded once
// per page. Streamlit's own chart theme is applied here as Streamlit applies it to
// st.plotly_chart: the template's placeholder colours become the theme's (light or dark), and the
// theme's fonts, backgrounds, grid and hover colours are the template's layout.
//
// A redraw that arrives while one is under way waits, and only the newest waiting one is drawn:
// the latest numbers always win. New numbers tell the page as they arrive
// ("attention:chart-data", which the grid's scrub paces itself by: the server has sent the run's
// charts) and each drawn state counts up `data-revision` on the chart.

const CHARTS = new WeakMap();
let plotlyLoad = null;

function loadPlotly(src) {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!plotlyLoad) {
    plotlyLoad = fromScript(src).catch((error) => {
      plotlyLoad = null;
      throw error;
    });
  }
  return plotlyLoad;
}

// A classic script from the app's root (under a base path or behind a proxy too): it sets
// window.Plotly.
function fromScript(src) {
  return new Promise((resolve, reject) => {
    const tag = document.createElement("script");
    tag.src = new URL(src, document.baseURI).href;
    tag.async = true;
    tag.onload = () => (window.Plotly ? resolve(window.Plotly) : reject(new Error("no Plotly")));
    tag.onerror = () => reject(new Error(`plotly.js not loaded from ${src}`));
    document.head.appendChild(tag);
  });
}

export default function (component) {
  const { parentElement, data } = component;
  let chart = CHARTS.get(parentElement);
  if (!chart) {
    chart = new LiveChart(parentElement);
    CHARTS.set(parentElement, chart);
  }
  chart.update(data);
}

class LiveChart {
  constructor(root) {
    this.root = root;
    this.box = document.createElement("div");
    this.box.className = "stPlotlyChart";
    this.box.dataset.testid = "stPlotlyChart";
    this.box.style.width = "100%";
    this.plot = document.createElement("div");
    this.plot.style.width = "100%";
    this.box.appendChild(this.plot);
    root.appendChild(this.box);
    this.text = null; // the newest spec's text, not yet drawn
    this.drawing = false;
    this.revision = 0;
    this.width = 0;
    this.themeKey = "";
    this.resizer = new ResizeObserver(() => this.resize());
    this.resizer.observe(this.box);
  }

  update(data) {
    if (!data) return;
    this.text = typeof data === "string" ? data : new TextDecoder().decode(data);
    // the first chart of a page starts fetching plotly.js now, not after its draw's waits
    if (!window.Plotly && !plotlyLoad) loadPlotly(JSON.parse(this.text).plotly).catch(() => {});
    this.root.dispatchEvent(new CustomEvent("attention:chart-data", { bubbles: true, composed: true }));
    this.drain();
  }

  async drain() {
    if (this.drawing) return;
    this.drawing = true;
    try {
      while (this.text !== null) {
        // after the tasks this message's handlers queued (a scrub's next value, which Streamlit
        // sends from a timer: drawn first, the server computes it while this chart draws), then
        // at the next frame: the run's other messages (the other charts' numbers, the grid's
        // acknowledgement) are taken first, and numbers replaced meanwhile are never drawn
        await null;
        await new Promise((resolve) => setTimeout(resolve, 0));
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const text = this.text;
        this.text = null;
        await this.draw(text);
      }
    } catch (error) {
      console.error("chart not drawn", error);
    } finally {
      this.drawing = false;
    }
  }

  async draw(text) {
    const spec = JSON.parse(text);
    const Plotly = await loadPlotly(spec.plotly);
    const theme = readTheme(this.root);
    const figure = JSON.parse(themed(JSON.stringify(spec.figure || {}), theme));
    const layout = figure.layout || {};
    applyTheme(layout, theme);
    const title = layout.title;
    if (title && (typeof title === "string" || typeof title.text === "string")) {
      const words = typeof title === "string" ? title : title.text;
      if (words) layout.title = { ...(typeof title === "string" ? {} : title), text: `<b>${words}</b>` };
    }
    layout.height = layout.height >= 10 ? layout.height : 450;
    this.width = Math.max(this.box.clientWidth, 150);
    layout.width = this.width;
    const alt = (spec.alt || "").trim();
    if (alt) {
      this.box.setAttribute("role", "figure");
      this.box.setAttribute("aria-label", alt);
    } else {
      this.box.removeAttribute("role");
      this.box.removeAttribute("aria-label");
    }
    this.box.style.minHeight = `${layout.height}px`;
    const config = { displaylogo: false, showSendToCloud: false, ...(spec.config || {}) };
    this.layout = layout;
    this.themeKey = theme.key;
    await Plotly.react(this.plot, figure.data || [], layout, config);
    this.revision += 1;
    this.plot.dataset.revision = String(this.revision);
  }

  resize() {
    if (!this.layout || !window.Plotly || this.drawing) return;
    const width = Math.max(this.box.clientWidth, 150);
    if (width === this.width) return;
    this.width = width;
    this.layout.width = width;
    window.Plotly.relayout(this.plot, { width });
  }
}

// --- Streamlit's chart theme ------------------------------------------------------------

function cssValue(style, name, fallback) {
  const value = style.getPropertyValue(name).trim();
  return value && value !== "unset" ? value : fallback;
}

const LUMINANCE = new Map(); // a colour's, measured once (the probe costs the page a restyle)

function luminance(color) {
  if (LUMINANCE.has(color)) return LUMINANCE.get(color);
  const probe = document.createElement("span");
  probe.style.color = color;
  document.body.appendChild(probe);
  const rgb = getComputedStyle(probe).color.match(/\d+(\.\d+)?/g) || ["255", "255", "255"];
  probe.remove();
  const [r, g, b] = rgb.slice(0, 3).map(Number);
  LUMINANCE.set(color, (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255);
  return LUMINANCE.get(color);
}

function readTheme(root) {
  const style = getComputedStyle(root);
  const background = cssValue(style, "--st-background-color", "#ffffff");
  const dark = luminance(background) < 0.5;
  const list = (name) => cssValue(style, name, "").split(",").map((c) => c.trim()).filter(Boolean);
  const theme = {
    dark,
    background,
    text: cssValue(style, "--st-text-color", dark ? "#fafafa" : "#31333f"),
    heading: cssValue(style, "--st-heading-color", dark ? "#fafafa" : "#31333f"),
    border: cssValue(style, "--st-border-color", dark ? "#31333f" : "#d5dae5"),
    secondary: cssValue(style, "--st-secondary-background-color", dark ? "#262730" : "#f0f2f6"),
    font: cssValue(style, "--st-font", '"Source Sans", sans-serif'),
    headingFont: cssValue(style, "--st-heading-font", cssValue(style, "--st-font", "sans-serif")),
    categorical: list("--st-chart-categorical-colors"),
    sequential: list("--st-chart-sequential-colors"),
    diverging: list("--st-chart-diverging-colors"),
    // Streamlit's grays: the ticks' (gray 70), the legend's (gray 90), the grid's (gray 30)
    gray70: dark ? "#a3a8b8" : "#808495",
    gray90: dark ? "#fafafa" : "#262730",
    gray30: dark ? "#31333f" : "#e6eaf1",
  };
  theme.key = JSON.stringify(theme);
  return theme;
}

// The placeholder colours of Streamlit's plotly template (streamlit.elements.lib.
// streamlit_plotly_theme), #000001 … #000040, as the theme's colours.
function themed(text, theme) {
  const swap = {};
  const put = (first, colors) => colors.forEach((c, i) => (swap[placeholder(first + i)] = c));
  put(1, theme.categorical.slice(0, 10));
  put(11, theme.sequential.slice(0, 10));
  put(21, theme.diverging.slice(0, 10));
  Object.assign(swap, {
    [placeholder(32)]: theme.dark ? "#21c354" : "#09ab3b",
    [placeholder(33)]: theme.dark ? "#ff4b4b" : "#ff2b2b",
    [placeholder(34)]: theme.dark ? "#1c83e1" : "#0068c9",
    [placeholder(35)]: theme.gray30,
    [placeholder(36)]: theme.gray70,
    [placeholder(37)]: theme.gray90,
    [placeholder(38)]: theme.background,
    [placeholder(39)]: theme.secondary,
    [placeholder(40)]: theme.secondary,
  });
  return text.replace(/"#0000[0-4][0-9]"/g, (match) => {
    const color = swap[match.slice(1, -1)];
    return color ? JSON.stringify(color) : match;
  });
}

function placeholder(n) {
  return `#${String(n).padStart(6, "0")}`;
}

// Deep: `source` written over `target` (lodash's merge, as Streamlit's theme does).
function over(target, source) {
  for (const [key, value] of Object.entries(source)) {
    if (value && typeof value === "object" && !Array.isArray(value)) {
      if (!target[key] || typeof target[key] !== "object" || Array.isArray(target[key])) target[key] = {};
      over(target[key], value);
    } else {
      target[key] = value;
    }
  }
  return target;
}

// Streamlit's values are written over the template's layout; the figure's own layout still wins.
function applyTheme(layout, theme) {
  const tick = { color: theme.gray70, size: 12 };
  const axisTitle = { font: { color: theme.gray70, size: 14 } };
  const template = (layout.template = layout.template || {});
  template.layout = over(template.layout || {}, {
    font: { color: theme.gray70, family: theme.font, size: 12 },
    title: { font: { family: theme.headingFont, size: 16, color: theme.heading }, pad: { l: 4 }, xanchor: "left", x: 0 },
    legend: {
      title: { font: { size: 12, color: theme.gray70 }, side: "top" },
      valign: "top",
      bordercolor: "rgba(0,0,0,0)",
      borderwidth: 0,
      font: { size: 12, color: theme.gray90 },
    },
    paper_bgcolor: theme.background,
    plot_bgcolor: theme.background,
    yaxis: {
      ticklabelposition: "outside",
      zerolinecolor: theme.gray30,
      title: { ...axisTitle, standoff: 24 },
      tickcolor: theme.gray30,
      tickfont: tick,
      gridcolor: theme.gray30,
      minor: { gridcolor: theme.gray30 },
      automargin: true,
    },
    xaxis: {
      zerolinecolor: theme.gray30,
      gridcolor: theme.gray30,
      showgrid: false,
      tickfont: tick,
      tickcolor: theme.gray30,
      title: { ...axisTitle, standoff: 20 },
      minor: { gridcolor: theme.gray30 },
      zeroline: false,
      automargin: true,
    },
    margin: { pad: 8, r: 0, l: 0 },
    hoverlabel: {
      bgcolor: theme.background,
      bordercolor: theme.border,
      font: { color: theme.gray70, family: theme.font, size: 12 },
    },
    coloraxis: {
      colorbar: {
        thickness: 16,
        xpad: 24,
        ticklabelposition: "outside",
        outlinecolor: "rgba(0,0,0,0)",
        outlinewidth: 8,
        len: 0.75,
        y: 0.5745,
        title: { font: { color: theme.gray70, size: 14 } },
        tickfont: tick,
      },
    },
  });
}
