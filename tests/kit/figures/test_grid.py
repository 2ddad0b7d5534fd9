"""The heatmap grid (d2l's show_heatmaps): panels, shared axes, outer labels, one colorbar."""

import numpy as np
import plotly.graph_objects as go
import pytest

from attention_ui.kit.figures.grid import GridSettings, heatmap_grid


def subplot_count(figure: go.Figure) -> int:
    """How many heatmap panels a grid figure holds (one trace per panel)."""
    return sum(1 for trace in figure.data if trace.type == "heatmap")


def _axes(figure, name):
    layout = figure.layout.to_plotly_json()
    return {key: layout[key] for key in layout if key.startswith(name)}


def test_identity_sanity_check_is_one_red_panel_with_ones_on_the_diagonal():
    figure = heatmap_grid(np.eye(10).reshape(1, 1, 10, 10), "Keys", "Queries")
    assert subplot_count(figure) == 1
    z = np.array(figure.data[0].z, dtype=float)
    assert np.array_equal(z, np.eye(10))
    assert figure.layout.coloraxis.colorscale[-1][1] == "rgb(103,0,13)"  # d2l's Reds
    assert figure.layout.xaxis.title.text == "Keys"
    assert figure.layout.yaxis.title.text == "Queries"


def test_one_panel_per_display_row_and_column_in_row_major_order():
    matrices = np.arange(2 * 3 * 4 * 5, dtype=float).reshape(2, 3, 4, 5)
    figure = heatmap_grid(matrices, "k", "q")
    assert subplot_count(figure) == 6
    for index, trace in enumerate(figure.data):
        r, c = divmod(index, 3)
        assert np.array_equal(np.array(trace.z, dtype=float), matrices[r, c])


def test_panels_share_axes_and_only_outer_edges_carry_titles_and_ticks():
    figure = heatmap_grid(np.random.default_rng(0).random((2, 3, 4, 5)), "Keys", "Queries")
    xaxes, yaxes = _axes(figure, "xaxis"), _axes(figure, "yaxis")
    titled_x = [name for name, axis in xaxes.items() if axis.get("title", {}).get("text")]
    titled_y = [name for name, axis in yaxes.items() if axis.get("title", {}).get("text")]
    assert sorted(titled_x) == ["xaxis4", "xaxis5", "xaxis6"]  # bottom row
    assert sorted(titled_y) == ["yaxis", "yaxis4"]  # first column
    # Shared: each top-row x axis follows the bottom one, each y axis follows the row's first.
    assert [xaxes[f"xaxis{i}"]["matches"] for i in ("", "2", "3")] == ["x4", "x5", "x6"]
    assert [yaxes[f"yaxis{i}"]["matches"] for i in ("2", "3", "5", "6")] == ["y", "y", "y4", "y4"]
    hidden = [
        name for name, axis in {**xaxes, **yaxes}.items() if axis.get("showticklabels") is False
    ]
    assert len(hidden) == 3 + 4  # inner x tick labels (top row) and inner y tick labels


def test_one_title_per_column_and_row_titles_at_the_side():
    figure = heatmap_grid(
        np.zeros((2, 2, 3, 3)),
        "k",
        "q",
        GridSettings(titles=["τ = 0.1", "τ = 1"], row_titles=["dot", "scaled dot"]),
    )
    texts = [a.text for a in figure.layout.annotations]
    assert texts == ["τ = 0.1", "τ = 1", "dot", "scaled dot"]


def test_one_shared_colour_axis_gives_exactly_one_colorbar():
    figure = heatmap_grid(np.random.default_rng(1).random((2, 2, 3, 3)), "k", "q")
    assert {trace.coloraxis for trace in figure.data} == {"coloraxis"}
    assert all(trace.showscale is None for trace in figure.data)
    # the weights' red spans 0…1 whatever the panels' own largest entry (here 0.98)
    assert (figure.layout.coloraxis.cmin, figure.layout.coloraxis.cmax) == (0.0, 1.0)
    signed = heatmap_grid(np.full((1, 2, 2, 2), 3.0), "k", "q", GridSettings(colorscale="RdBu"))
    assert (signed.layout.coloraxis.cmin, signed.layout.coloraxis.cmax) == (0.0, 3.0)


def test_labels_titles_and_hovers_are_plain_text():
    figure = heatmap_grid(
        np.ones((1, 1, 1, 2)),
        "<b>k</b>",
        "q",
        GridSettings(
            titles=["<script>x</script>"],
            x_labels=["<img src=x onerror=alert(1)>", "Li"],
            y_labels=["Li"],
        ),
    )
    trace = figure.data[0]
    assert list(trace.x) == ["&lt;img src=x onerror=alert(1)&gt;", "Li"]
    assert figure.layout.annotations[0].text == "&lt;script&gt;x&lt;/script&gt;"
    assert figure.layout.xaxis.title.text == "&lt;b&gt;k&lt;/b&gt;"
    assert "&lt;img" in trace.customdata[0][0] and "<img" not in trace.customdata[0][0]


def test_custom_hover_explains_each_cell():
    figure = heatmap_grid(
        np.ones((1, 2, 2, 2)),
        "k",
        "q",
        GridSettings(hover=lambda r, c, i, j: f"panel {c}, cell {i}{j}"),
    )
    assert figure.data[1].customdata[1][0] == "panel 1, cell 10"


def test_small_panels_print_numbers_and_large_ones_do_not():
    assert heatmap_grid(np.eye(3).reshape(1, 1, 3, 3), "k", "q").data[0].texttemplate
    assert heatmap_grid(np.eye(10).reshape(1, 1, 10, 10), "k", "q").data[0].texttemplate is None


@pytest.mark.parametrize("shape", [(3, 3), (1, 2, 3), (0, 1, 2, 2)])
def test_anything_but_a_non_empty_4_axis_array_is_refused(shape):
    with pytest.raises(ValueError, match="4-axis"):
        heatmap_grid(np.zeros(shape), "k", "q")


def test_wrong_number_of_titles_is_refused():
    with pytest.raises(ValueError, match="titles"):
        heatmap_grid(np.zeros((1, 2, 2, 2)), "k", "q", GridSettings(titles=["only one"]))
