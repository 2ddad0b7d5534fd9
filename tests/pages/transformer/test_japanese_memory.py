"""Japanese words by janome without compiling its dictionary's source (attention_ui/transformer/
japanese.py): the same matrix, the same words, and a process that stays far below a Community
Cloud app's 690 MB where importing janome plainly peaked at 939 MB."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import janome
import pytest

from attention_ui.transformer.japanese import CONNECTION_MODULES, japanese_words, read_connections
from tests.conftest import REPO

SYSDIC = Path(janome.__file__).parent / "sysdic"


@pytest.mark.parametrize("name", CONNECTION_MODULES)
def test_the_connection_costs_read_with_numpy_equal_janomes_literal(name):
    text = (SYSDIC / f"{name}.py").read_text(encoding="ascii")
    literal = json.loads(text[text.index("DATA=") + len("DATA=") :])  # the list is valid JSON
    rows = read_connections(SYSDIC / f"{name}.py")
    assert rows == literal
    assert {len(row) for row in rows} == {1316}


@pytest.mark.parametrize(
    ("sentence", "words"),
    [
        # as janome 0.5.0 splits them with its compiled, in-memory dictionary
        ("吾輩は猫である。名前はまだ無い。", "吾輩 は 猫 で ある 。 名前 は まだ 無い 。"),
        ("猫がマットの上の箱に座った", "猫 が マット の 上 の 箱 に 座っ た"),
        ("東京都に住んでいます", "東京 都 に 住ん で い ます"),
    ],
)
def test_japanese_is_split_as_janome_splits_it(sentence, words):
    assert japanese_words(sentence) == words.split()


# VmHWM: this process's own peak (getrusage's maxrss keeps the forked parent's from before exec)
PROBE = """
import re
from pathlib import Path
from attention_ui.transformer import model
words = model.split_sentence("吾輩は猫である。名前はまだ無い。").tokens
print("words:", len(words))
status = Path("/proc/self/status").read_text()
print("peak MB:", int(re.search(r"VmHWM:\\s+(\\d+) kB", status).group(1)) // 1024)
"""


def test_a_process_without_janomes_bytecode_stays_far_below_690_mb():
    """As after an installer that writes no bytecode: importing the page's model and splitting a
    Japanese sentence peak at a fraction of the 939 MB that compiling janome's matrix took."""
    environment = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(REPO)}
    environment["PYTHONPYCACHEPREFIX"] = str(REPO / ".no-such-pycache")  # no bytecode is found
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        env=environment,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=180,
        check=True,
    )
    said = dict(line.split(": ") for line in result.stdout.splitlines() if ": " in line)
    assert said["words"] == "11"
    assert int(said["peak MB"]) < 400, result.stdout
