"""Where the bots live: one search for every game, and each game's bots in its folder."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEARCH_CLASS = re.compile(r"Search|ISMCTS")


def _defines_a_search(path: Path) -> bool:
    """A top-level function ``search`` or ``ismcts``, or a class named like a search."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and SEARCH_CLASS.search(node.name):
            return True
    return any(isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
               and node.name in ("search", "ismcts") for node in tree.body)


def test_one_file_defines_the_search() -> None:
    files = [*(ROOT / "plugins").rglob("*.py"), *(ROOT / "lodam_p2p").rglob("*.py")]
    defining = sorted(str(p.relative_to(ROOT)) for p in files if _defines_a_search(p))
    assert defining == ["plugins/search.py"]


def test_each_games_bots_live_in_its_folder() -> None:
    plugins = ROOT / "plugins"
    assert not list(plugins.glob("lorum_*.py"))
    assert sorted(p.name for p in plugins.glob("*.py")) == [
        "__init__.py", "random_bot.py", "search.py"]
    for game in ("lodam", "lorum"):
        assert {"heuristic.py", "hooks.py", "ismcts.py"} <= {
            p.name for p in (plugins / game).glob("*.py")}
