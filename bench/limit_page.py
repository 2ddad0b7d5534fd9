"""The limit for a page's main edit: a bare HTML page that redraws the plain floor's figures
(bench/plain_floor_figures.py: the same NumPy and the same figures) with Plotly.react after one
server round trip, and nothing else (bench/browser.py's "limit page").

The page holds the edit's input, named as the app names it: for Luong, Q's cells as <input>s
("Q, row 1, column q1"); for the database, transformer and regression pages one text <input>
(the query, the sentence, σ), posted when Enter is pressed; for the training page an <input
type=range> over the run's snapshot steps, posted at each move (an answer older than the last
one drawn is dropped). This server computes the figures and answers with them as plotly writes
them; the page calls Plotly.react on each chart's element. plotly.js is the one the Python
plotly package ships, served from here. Python's standard library serves it all (no Streamlit).

    python bench/limit_page.py PORT '{"Q": [[…]], "K": [[…]], "V": [[…]]}'   # Luong
    python bench/limit_page.py PORT START.json PAGE     # database, transformer, regression, train

Not part of the app.
"""

import contextlib
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import plotly
import plotly.io as pio

sys.path.insert(0, str(Path(__file__).resolve().parent))
from plain_floor_figures import PAGES, load_start

PLOTLY_JS = Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>limit</title>
<script src="plotly.min.js"></script>
<style>body{font-family:sans-serif} .charts{display:flex;flex-wrap:wrap}
.charts div{flex:1 0 30%} input[type=range]{width:90%}</style>
</head><body>
<div id="input"></div>
<div class="charts" id="charts"></div>
<script>
const INPUT = __INPUT__;
const place = document.getElementById("input");
let sent = 0, drawn = 0;
async function post(edit) {
  const number = ++sent;
  const answer = await fetch("edit", {method: "POST", body: JSON.stringify(edit)});
  const charts = await answer.json();
  if (number > drawn) { drawn = number; draw(charts); }
}
function field(label, value, commit) {
  const input = document.createElement("input");
  input.setAttribute("aria-label", label);
  input.value = String(value);
  input.addEventListener("keydown", event => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    post(commit(input.value));
  });
  return input;
}
if (INPUT.kind === "cells") {
  const table = document.createElement("table");
  INPUT.value.forEach((row, i) => {
    const tr = table.insertRow();
    row.forEach((value, j) => tr.insertCell().appendChild(field(
      `Q, row ${i + 1}, column q${j + 1}`, value, text => ({row: i, col: j, text}))));
  });
  place.appendChild(table);
} else if (INPUT.kind === "steps") {
  const input = document.createElement("input");
  const steps = INPUT.steps;  // evenly spaced, as a run records its snapshots
  Object.assign(input, {type: "range", min: steps[0], max: steps[steps.length - 1],
                        step: steps[1] - steps[0], value: INPUT.value});
  input.setAttribute("aria-label", INPUT.label);
  input.addEventListener("input", () => post({text: input.value}));
  place.appendChild(input);
} else {
  place.appendChild(field(INPUT.label, INPUT.value, text => ({text})));
}
function draw(charts) {
  for (const [name, figure] of Object.entries(charts)) {
    let element = document.getElementById(name);
    if (!element) {
      element = document.getElementById("charts").appendChild(document.createElement("div"));
      element.id = name;
    }
    Plotly.react(element, figure.data, figure.layout, {responsive: true});
  }
}
draw(__FIGURES__);
</script></body></html>"""

# What each page's input holds when it opens, in its start, and the input's kind.
STARTS = {
    "luong": ("Q", "cells"),
    "database": ("query", "text"),
    "transformer": ("sentence", "text"),
    "regression": ("sigma", "text"),
    "train": (None, "steps"),  # the last step
}


def start_value(page: str, start: dict):
    name, _ = STARTS[page]
    return start["steps"][-1] if name is None else start[name]


def edited(page: str, value, edit: dict):
    """The input's value after an edit (a bad number keeps the last one)."""
    if page == "luong":
        q = np.array(value, dtype=float)
        q[int(edit["row"]), int(edit["col"])] = float(edit["text"])
        return q
    if page in ("regression", "train"):
        return float(edit["text"]) if page == "regression" else int(edit["text"])
    return str(edit["text"])


def main() -> None:
    port, start = int(sys.argv[1]), load_start(sys.argv[2])
    page = sys.argv[3] if len(sys.argv) > 3 else "luong"
    figures = PAGES[page]
    value = start_value(page, start)
    script = PLOTLY_JS.read_bytes()
    described = {"kind": STARTS[page][1], "value": value, "label": start.get("label", "")}
    if page == "train":
        described["steps"] = start["steps"]

    def charts() -> str:
        drawn = figures(start, value)
        return "{" + ",".join(f'"{n}":{pio.to_json(f, validate=False)}' for n, f in drawn) + "}"

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:  # quiet
            pass

        def send(self, body: bytes, kind: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            if self.path.endswith("plotly.min.js"):
                self.send(script, "text/javascript")
            elif self.path.endswith("_stcore/health"):
                self.send(b"ok", "text/plain")
            else:
                html = PAGE.replace("__INPUT__", json.dumps(described, default=_listed))
                self.send(html.replace("__FIGURES__", charts()).encode(), "text/html")

        def do_POST(self) -> None:
            nonlocal value
            edit = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with contextlib.suppress(ValueError, KeyError, IndexError, TypeError):
                value = edited(page, value, edit)
            self.send(charts().encode(), "application/json")

    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


def _listed(value):
    return value.tolist()


if __name__ == "__main__":
    main()
