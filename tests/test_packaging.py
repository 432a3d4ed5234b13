"""Packaging: every package folder ships, and the bundled bots install under the project's
own name (``lodam_plugins``), never as a generic top-level ``plugins`` package."""

from __future__ import annotations

import importlib.metadata
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _setuptools() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        table: dict[str, object] = tomllib.load(f)["tool"]["setuptools"]
    return table


def test_the_package_list_names_every_package_folder() -> None:
    config = _setuptools()
    folders = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "lodam_p2p").rglob("__init__.py")
    }
    plugins = {
        ".".join(("lodam_plugins", *init.parent.relative_to(ROOT / "plugins").parts))
        for init in (ROOT / "plugins").rglob("__init__.py")
    }
    listed = set(config["packages"])  # type: ignore[call-overload]
    assert listed == folders | plugins
    assert config["package-dir"] == {"lodam_plugins": "plugins"}
    assert "plugins" not in listed


def test_the_bundled_bots_are_entry_points_under_lodam_plugins() -> None:
    group = importlib.metadata.entry_points(group="lodam_p2p.bots")
    ours = {ep.name: ep.value for ep in group if ep.dist and ep.dist.name == "lodam_p2p"}
    assert ours == {
        "random": "lodam_plugins.random_bot",
        "heuristic": "lodam_plugins.lodam.heuristic",
        "ismcts": "lodam_plugins.lodam.ismcts",
        "lorum_heuristic": "lodam_plugins.lorum.heuristic",
        "lorum_ismcts": "lodam_plugins.lorum.ismcts",
    }
    for ep in group:
        if ep.name in ours:
            assert ep.load().__name__ == ours[ep.name]
