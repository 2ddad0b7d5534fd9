"""The limit for the Luong page's edit: a bare HTML page that redraws the plain floor's figures
(bench/plain_floor.py: the same NumPy and the same go.Heatmap figures, titled the same) with
Plotly.react after one server round trip, and nothing else (bench/browser.py's "limit page").

The page holds Q's cells as <input>s named as the app's grid names them; Enter posts the cell to
this server, which computes S, A and O and answers with the three figures as plotly writes them;
the page calls Plotly.react on each chart's element. plotly.js is the one the Python plotly
package ships, served from here. Python's standard library serves it all (no Streamlit).

    python bench/limit_page.py PORT '{"Q": [[…]], "K": [[…]], "V": [[…]]}'

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
from plain_floor_figures import figures

PLOTLY_JS = Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>limit</title>
<script src="plotly.min.js"></script>
<style>body{font-family:sans-serif} .charts{display:flex} .charts div{flex:1}</style>
</head><body>
<table id="q"></table>
<div class="charts"><div id="S"></div><div id="A"></div><div id="O"></div></div>
<script>
const Q = __Q__;
const table = document.getElementById("q");
Q.forEach((row, i) => {
  const tr = table.insertRow();
  row.forEach((value, j) => {
    const input = document.createElement("input");
    input.setAttribute("aria-label", `Q, row ${i + 1}, column q${j + 1}`);
    input.value = String(value);
    input.addEventListener("keydown", async (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      const body = JSON.stringify({row: i, col: j, text: input.value});
      const answer = await fetch("edit", {method: "POST", body});
      draw(await answer.json());
    });
    tr.insertCell().appendChild(input);
  });
});
function draw(charts) {
  for (const [name, figure] of Object.entries(charts))
    Plotly.react(document.getElementById(name), figure.data, figure.layout, {responsive: true});
}
draw(__FIGURES__);
</script></body></html>"""


def main() -> None:
    port, start = int(sys.argv[1]), json.loads(sys.argv[2])
    matrices = {name: np.array(v, dtype=float) for name, v in start.items()}
    q = matrices["Q"].copy()
    script = PLOTLY_JS.read_bytes()

    def charts() -> str:
        drawn = figures(q, matrices["K"], matrices["V"])
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
                page = PAGE.replace("__Q__", json.dumps(q.tolist()))
                self.send(page.replace("__FIGURES__", charts()).encode(), "text/html")

        def do_POST(self) -> None:
            edit = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with contextlib.suppress(ValueError, KeyError, IndexError, TypeError):
                q[int(edit["row"]), int(edit["col"])] = float(edit["text"])
            self.send(charts().encode(), "application/json")

    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


if __name__ == "__main__":
    main()
