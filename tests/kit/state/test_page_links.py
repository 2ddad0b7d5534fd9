"""A click on a page link that a late run of the page overtook still opens the page clicked:
the app's links name their page (attention_ui/kit/state/navigation.py)."""

from __future__ import annotations

import pytest

from attention_ui.kit.state.navigation import link_params
from tests.conftest import open_app_page


def test_a_run_that_carries_another_pages_link_goes_to_that_page():
    """A grid's edit sent just after a click on the link to the database page comes as a run
    of the Luong page with the link's query string: the learner lands on the database page."""
    at = open_app_page("luong")
    at.query_params.update(link_params("database"))
    at.run()
    assert not at.exception
    assert at.title[0].value == "Database lookup"
    assert "to" not in at.query_params  # the address names only the page's state


@pytest.mark.parametrize("clicked", ["luong", "no-such-page", "../app"])
def test_a_link_to_the_page_itself_or_to_no_page_stays(clicked):
    at = open_app_page("luong")
    at.query_params["to"] = clicked
    at.run()
    assert not at.exception
    assert at.title[0].value == "Luong explorer"
    assert "to" not in at.query_params


def test_every_menu_link_names_its_page():
    at = open_app_page("home")
    for link in at.sidebar.get("page_link"):
        assert f"to={link.proto.page}" in link.proto.query_string
