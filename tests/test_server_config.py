"""Server settings the capacity figures rely on (.streamlit/config.toml, as Streamlit reads it)."""

from streamlit import config

from attention_ui.kit.classroom.panel import POLL_SECONDS, STUDENT_POLL_SECONDS
from tests.conftest import REPO


def test_streamlit_reads_no_forced_full_gc_after_each_run(monkeypatch):
    """runner.postScriptGC is a hidden option (`streamlit config show` omits it): a typo in its
    name would be ignored, and every run would pay a full collection again (bench/load.py gc)."""
    monkeypatch.chdir(REPO)
    config.get_config_options(force_reparse=True)
    try:
        assert config.get_option("runner.postScriptGC") is False
        assert config.is_manually_set("runner.postScriptGC")
    finally:
        config.get_config_options(force_reparse=True)


def test_streamlit_reads_the_smaller_cached_message_size(monkeypatch):
    """global.minCachedMessageSize is hidden too: below Streamlit's 10 kB, a chart an edit
    leaves as it was (the open step's) goes to the browser as its hash (bench/browser.py)."""
    monkeypatch.chdir(REPO)
    config.get_config_options(force_reparse=True)
    try:
        assert config.is_manually_set("global.minCachedMessageSize")
        assert config.get_option("global.minCachedMessageSize") < 10_000
    finally:
        config.get_config_options(force_reparse=True)


def test_streamlit_keeps_cached_elements_past_a_followers_polls(monkeypatch):
    """global.maxCachedMessageAge is hidden: a typo would leave Streamlit's 2 runs, which a
    follower's poll fragment uses up in 2 s (tests/browser/test_classroom.py). The runs it
    keeps an element for last 40 s of a follower's polls or more, whatever their interval."""
    monkeypatch.chdir(REPO)
    config.get_config_options(force_reparse=True)
    try:
        assert config.is_manually_set("global.maxCachedMessageAge")
        age = config.get_option("global.maxCachedMessageAge")
        assert age * min(STUDENT_POLL_SECONDS, POLL_SECONDS) >= 40
    finally:
        config.get_config_options(force_reparse=True)
