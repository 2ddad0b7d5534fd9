"""The app's pages, in menu order, each with its address schema and its checked tasks: the one
list the frame (menu, address, Share box) and pages/ read. The kit never names a page.

Streamlit finds every script in pages/ by itself (its own `pages/` discovery, so a shared
address such as `/luong?lang=ja` opens that page even as the first visit to a fresh server);
its default file-name menu is hidden (`client.showSidebarNavigation = false` in
.streamlit/config.toml) and `attention_ui.frame` draws this list instead, in the learner's
language: each page's `menu` label and `summary` (its line on the home page) come from its own
catalog. To add a page, see "Adding a page" in docs/ARCHITECTURE.md (five files, one line here;
tests/test_add_a_page.py follows it).
"""

from __future__ import annotations

from dataclasses import dataclass

from attention_ui.database import schema as _database_schema
from attention_ui.database import tasks as _database_tasks
from attention_ui.exercises import schema as _exercises_schema
from attention_ui.exercises import tasks as _exercises_tasks
from attention_ui.gallery import schema as _gallery_schema
from attention_ui.gallery import tasks as _gallery_tasks
from attention_ui.home import schema as _home_schema
from attention_ui.kit.share import address
from attention_ui.kit.share.codec import PageSchema
from attention_ui.kit.teaching.tasks import Task
from attention_ui.luong import schema as _luong_schema
from attention_ui.luong import tasks as _luong_tasks
from attention_ui.regression import schema as _regression_schema
from attention_ui.train import schema as _train_schema
from attention_ui.train import tasks as _train_tasks
from attention_ui.transformer import schema as _transformer_schema


@dataclass(frozen=True)
class MenuPage:
    name: str  # pages/<name>.py, served at /<name>, labelled by the catalog entry <name>.menu
    icon: str  # a Material Symbol, drawn by Streamlit's own font (no emoji font needed)
    # what of the page travels in its address and its state file (None: nothing, an empty one)
    schema: PageSchema | None = None
    tasks: tuple[Task, ...] = ()  # the checked tasks at the end of the page

    def __post_init__(self) -> None:
        if self.schema is None:
            object.__setattr__(self, "schema", PageSchema(self.name, ()))

    @property
    def path(self) -> str:
        return f"pages/{self.name}.py"


PAGES: tuple[MenuPage, ...] = (
    MenuPage("home", ":material/home:", _home_schema.SCHEMA),
    MenuPage("luong", ":material/calculate:", _luong_schema.SCHEMA, _luong_tasks.TASKS),
    MenuPage("database", ":material/table_view:", _database_schema.SCHEMA, _database_tasks.TASKS),
    MenuPage("gallery", ":material/grid_view:", _gallery_schema.SCHEMA, _gallery_tasks.TASKS),
    MenuPage("exercises", ":material/edit_note:", _exercises_schema.SCHEMA, _exercises_tasks.TASKS),
    MenuPage("regression", ":material/show_chart:", _regression_schema.SCHEMA),
    MenuPage("transformer", ":material/hub:", _transformer_schema.SCHEMA),
    MenuPage("train", ":material/model_training:", _train_schema.SCHEMA, _train_tasks.TASKS),
)
HOME = PAGES[0]
NAMES = tuple(page.name for page in PAGES)
SCHEMAS: dict[str, PageSchema] = {page.name: page.schema for page in PAGES}
TASKS: tuple[Task, ...] = tuple(task for page in PAGES for task in page.tasks)

address.register_schemas(SCHEMAS)  # the Share box opens any page's state file
