"""Plotly's public API only (issue 33): no module of the app imports plotly's private modules
(`_plotly_utils`, `plotly._…`), passes a private keyword (`_validate=False`) or reads or sets a
private attribute of plotly's objects (`figure._layout`, `figure._data`, `trace._props`, …).
Such code breaks without notice on a plotly release; a fast path is built from plain dicts
instead (kit/figures/heatmap.DrawnFigure)."""

from __future__ import annotations

import ast
from pathlib import Path

import plotly.graph_objects as go

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("attention_ui", "pages")


def _private_names() -> frozenset[str]:
    """Every underscore name plotly's figures, traces and layouts have (methods, properties,
    instance attributes), dunders left out."""
    objects = [go.Figure(), go.Heatmap(), go.Scatter(), go.Bar(), go.Layout(), go.layout.XAxis()]
    names = set()
    for obj in objects:
        names |= set(dir(obj)) | set(vars(obj))
    return frozenset(n for n in names if n.startswith("_") and not n.startswith("__"))


def _private_uses(tree: ast.AST, private: frozenset[str]) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            modules = [node.module or ""]
        else:
            modules = []
        for module in modules:
            parts = module.split(".")
            if parts[0] == "_plotly_utils" or (
                parts[0] == "plotly" and any(p.startswith("_") for p in parts[1:])
            ):
                found.append(f"line {node.lineno}: import {module}")
        if isinstance(node, ast.Attribute) and node.attr in private:
            found.append(f"line {node.lineno}: .{node.attr}")
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg and keyword.arg.startswith("_"):
                    found.append(f"line {node.lineno}: {keyword.arg}=")
            if (
                isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "setattr", "hasattr")
                and len(node.args) > 1
                and isinstance(node.args[1], ast.Constant)
                and node.args[1].value in private
            ):
                found.append(f"line {node.lineno}: {node.func.id}(…, {node.args[1].value!r})")
    return found


def test_no_private_plotly_api_in_the_app():
    private = _private_names()
    assert {"_layout", "_data", "_props", "_validate", "_initialize_layout_template"} <= private
    found = {}
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            uses = _private_uses(ast.parse(path.read_text(encoding="utf-8")), private)
            if uses:
                found[str(path.relative_to(ROOT))] = uses
    assert found == {}


def test_the_check_sees_each_kind_of_private_use():
    private = _private_names()
    source = """
from _plotly_utils.utils import convert_to_base64
import plotly._subplots
figure = go.Figure(data=[], _validate=False)
layout = figure._layout
figure._data[0]["z"] = 1
getattr(figure, "_props")
"""
    assert len(_private_uses(ast.parse(source), private)) == 6
    assert _private_uses(ast.parse("figure.layout.margin.l = 0\nfigure.data[0].z"), private) == []
