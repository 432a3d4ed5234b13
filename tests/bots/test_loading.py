"""Bots are found through the entry-point group and in local plugin folders."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from lodam_p2p.bots import PLUGIN_PATH_ENV, BotRegistry, PluginLoadError, UnknownBotError
from lodam_p2p.bots.api import BotOptionError

FIRST_BOT = textwrap.dedent(
    """
    from lodam_p2p.bots import BotOption, BotType, hookimpl

    class FirstBot:
        def __init__(self, *, seat, seed, options):
            self.options = options

        def decide(self, view):
            return view.legal[0]

    @hookimpl
    def lodam_bot_types():
        return [BotType("first", "always the first legal move", FirstBot,
                        options=(BotOption("depth", 3, "how deep"),))]
    """
)


def write_plugin(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_bundled_bots_come_through_the_entry_point_group() -> None:
    registry = BotRegistry.load(default_dirs=False)
    names = registry.names()
    assert {"random", "heuristic"} <= set(names)
    sources = {bot.name: bot.source for bot in registry}
    assert sources["random"].startswith("entry point random")
    assert sources["heuristic"].startswith("entry point heuristic")


def test_a_plugin_file_in_a_folder_is_loaded(tmp_path: Path) -> None:
    path = write_plugin(tmp_path, "first.py", FIRST_BOT)
    registry = BotRegistry.load([tmp_path], entry_points=False, default_dirs=False)
    assert registry.names() == ["first"]
    assert next(iter(registry)).source == str(path)
    bot = registry.get("first").make(0, 1, {"depth": "5"})
    assert bot.options == {"depth": 5}  # type: ignore[attr-defined]


def test_the_environment_variable_names_plugin_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_plugin(tmp_path / "env", "first.py", FIRST_BOT)
    monkeypatch.setenv(PLUGIN_PATH_ENV, str(tmp_path / "env"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert "first" in BotRegistry.load(entry_points=False)


def test_the_user_folder_is_searched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_plugin(tmp_path / "config" / "lodam" / "plugins", "first.py", FIRST_BOT)
    monkeypatch.delenv(PLUGIN_PATH_ENV, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert "first" in BotRegistry.load(entry_points=False)


def test_files_starting_with_underscore_are_not_plugins(tmp_path: Path) -> None:
    write_plugin(tmp_path, "_helper.py", "raise RuntimeError('not a plugin')")
    assert len(BotRegistry.load([tmp_path], entry_points=False, default_dirs=False)) == 0


def test_a_misspelt_hook_is_an_error_naming_the_file(tmp_path: Path) -> None:
    text = FIRST_BOT.replace("def lodam_bot_types", "def lodam_bot_type")
    path = write_plugin(tmp_path, "typo.py", text)
    with pytest.raises(PluginLoadError, match=r"typo\.py"):
        BotRegistry.load([tmp_path], entry_points=False, default_dirs=False)
    assert path.exists()


def test_a_broken_plugin_file_is_one_clear_error(tmp_path: Path) -> None:
    write_plugin(tmp_path, "broken.py", "def (:\n")
    with pytest.raises(PluginLoadError, match=r"broken\.py: SyntaxError"):
        BotRegistry.load([tmp_path], entry_points=False, default_dirs=False)


def test_two_bots_of_one_name_is_an_error_naming_both(tmp_path: Path) -> None:
    write_plugin(tmp_path, "a.py", FIRST_BOT)
    write_plugin(tmp_path, "b.py", FIRST_BOT)
    with pytest.raises(PluginLoadError, match=r"a\.py and .*b\.py"):
        BotRegistry.load([tmp_path], entry_points=False, default_dirs=False)


def test_a_missing_folder_named_on_the_command_line_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(PluginLoadError, match="does not exist"):
        BotRegistry.load([tmp_path / "nowhere"], entry_points=False, default_dirs=False)


def test_unknown_bot_lists_the_installed_ones() -> None:
    registry = BotRegistry.load(default_dirs=False)
    with pytest.raises(UnknownBotError, match=r"unknown bot 'nosuch' \(installed: .*random"):
        registry.get("nosuch")


def test_bot_options_are_checked_by_the_bot_type() -> None:
    heuristic = BotRegistry.load(default_dirs=False).get("heuristic")
    assert heuristic.parse_options({"risk": "2"})["risk"] == 2.0
    assert heuristic.parse_options({"exchanges": "off"})["exchanges"] is False
    with pytest.raises(BotOptionError, match="no option 'nope'"):
        heuristic.parse_options({"nope": "1"})
    with pytest.raises(BotOptionError, match=r"heuristic\.risk=lots"):
        heuristic.parse_options({"risk": "lots"})


def test_a_broken_entry_point_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import pluggy

    def explode(self: pluggy.PluginManager, group: str, name: str | None = None) -> int:
        raise ModuleNotFoundError("No module named 'lodam_plugins.nosuch'")

    monkeypatch.setattr(pluggy.PluginManager, "load_setuptools_entrypoints", explode)
    with pytest.raises(PluginLoadError, match=r"entry point of group lodam_p2p\.bots failed"):
        BotRegistry.load(default_dirs=False)
