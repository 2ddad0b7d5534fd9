"""The app's pages, in menu order: the one list the translated menu and the home page read.

Streamlit finds every script in pages/ by itself (its own `pages/` discovery, so a shared
address such as `/luong?lang=ja` opens that page even as the first visit to a fresh server);
its default file-name menu is hidden (`client.showSidebarNavigation = false` in
.streamlit/config.toml) and `attention_ui.frame` draws this list instead, in the learner's
language.

To add a page: write pages/<name>.py (it starts with `page_header("<name>")`), add ONE line
below, and give the catalogs `nav.<name>` (menu label), `<name>.title`, `<name>.intro` and
`home.pages.<name>` (its line on the home page) in both languages.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MenuPage:
    name: str  # pages/<name>.py, served at /<name>, labelled by the catalog entry nav.<name>
    icon: str  # a Material Symbol, drawn by Streamlit's own font (no emoji font needed)

    @property
    def path(self) -> str:
        return f"pages/{self.name}.py"


PAGES: tuple[MenuPage, ...] = (
    MenuPage("home", ":material/home:"),
    MenuPage("luong", ":material/calculate:"),
    MenuPage("database", ":material/table_view:"),
    MenuPage("gallery", ":material/grid_view:"),
    MenuPage("exercises", ":material/edit_note:"),
    MenuPage("regression", ":material/show_chart:"),
    MenuPage("transformer", ":material/hub:"),
)
HOME = PAGES[0]
