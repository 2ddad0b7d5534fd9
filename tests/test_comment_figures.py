"""Comments state invariants; timing figures live in commit messages and the README's
Benchmarks section.

A comment that quotes a timing ("1.45 ms per edit", "5-6× slower", "52 kB per redraw",
"9 % of a core") is true on one machine on one day and goes stale unnoticed; what it protects
(an edit reruns only its fragment, a curve is thinned while it trains) is what the reader needs.
This reads every comment and docstring of app.py, attention_ui/, pages/ and the JavaScript and
CSS comments of static/, and fails on one that quotes such a figure.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# A number with a unit of time, a rate, a size in bytes or a share of a core; a speed-up
# ("5×", "5-6× slower"; not a power of ten as in "1.5×10⁻⁵"); frames per second.
TIMING = re.compile(
    r"\b\d[\d.,]*\s?(?:ms|µs|μs|ns|s|sec|secs|seconds?|minutes?|fps|kB|KB|MB|GB)\b"
    r"|\d×(?!\s?10)"
    r"|\bframes per second\b"
    r"|%\s+of\s+a\s+core",
)


def python_comments(path: Path) -> list[tuple[int, str]]:
    text = path.read_text(encoding="utf-8")
    found = [
        (token.start[0], token.string)
        for token in tokenize.generate_tokens(io.StringIO(text).readline)
        if token.type == tokenize.COMMENT
    ]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            docstring = ast.get_docstring(node, clean=False)
            if docstring:
                first = node.body[0].lineno
                found += [(first + n, line) for n, line in enumerate(docstring.splitlines())]
    return found


def script_comments(path: Path) -> list[tuple[int, str]]:
    text = path.read_text(encoding="utf-8")
    found = []
    for match in re.finditer(r"/\*.*?\*/|(?<![:\"'])//[^\n]*", text, re.S):
        first = text.count("\n", 0, match.start()) + 1
        found += [(first + n, line) for n, line in enumerate(match.group().splitlines())]
    return found


def commented_files() -> list[Path]:
    files = [REPO / "app.py", *(REPO / "pages").glob("*.py")]
    files += (REPO / "attention_ui").rglob("*.py")
    files += [p for p in (REPO / "static").rglob("*") if p.suffix in (".js", ".css", ".html")]
    # static/vendor/ holds others' files as they ship them (plotly.js)
    return sorted(f for f in files if "__pycache__" not in f.parts and "vendor" not in f.parts)


def test_the_scan_reads_comments_of_every_kind():
    assert len(commented_files()) > 100
    assert TIMING.search("costs 1.45 ms per edit") and TIMING.search("made it 5-6× slower")
    assert TIMING.search("a curve is 52 kB") and TIMING.search("9 % of a core")
    assert not TIMING.search("a 2 × 2 matrix, 1.5×10⁻⁵, the 12 steps, Q's rows, 358 px")
    assert python_comments(REPO / "app.py") and script_comments(REPO / "static" / "live_chart.js")


def test_no_comment_quotes_a_timing_figure():
    quoted = []
    for path in commented_files():
        read = python_comments if path.suffix == ".py" else script_comments
        for line, text in read(path):
            if TIMING.search(text):
                quoted.append(f"{path.relative_to(REPO)}:{line}: {text.strip()}")
    assert not quoted, (
        "these comments quote a timing figure: state the invariant the code keeps instead, and "
        "put the figure in the commit message or the README's Benchmarks section\n"
        + "\n".join(quoted)
    )
