"""The hookspec is typed and documented, and docs/bots.md covers every hook."""

from __future__ import annotations

import inspect
from dataclasses import fields
from pathlib import Path

from lodam_p2p.bots import BotType, hookspec

DOCS = Path(__file__).resolve().parents[2] / "docs" / "bots.md"


def hooks() -> list[object]:
    """Every function marked as a hook specification."""
    return [
        value
        for _name, value in inspect.getmembers(hookspec, inspect.isfunction)
        if hasattr(value, f"{hookspec.PROJECT}_spec")
    ]


def test_there_are_hooks_and_one_marker_pair() -> None:
    assert len(hooks()) >= 2
    assert hookspec.hookspec.project_name == hookspec.hookimpl.project_name == "lodam_p2p"


def test_every_hook_is_in_the_plugin_authors_guide() -> None:
    guide = DOCS.read_text(encoding="utf-8")
    missing = [h.__name__ for h in hooks() if f"`{h.__name__}" not in guide]  # type: ignore[attr-defined]
    assert not missing, f"hooks missing from docs/bots.md: {missing}"


def test_every_hook_is_typed_and_says_whether_it_is_firstresult() -> None:
    for hook in hooks():
        signature = inspect.signature(hook)  # type: ignore[arg-type]
        assert signature.return_annotation is not inspect.Signature.empty
        for parameter in signature.parameters.values():
            assert parameter.annotation is not inspect.Parameter.empty
        doc = inspect.getdoc(hook) or ""
        assert "firstresult" in doc
        assert ":return:" in doc


def test_every_bot_type_field_is_in_the_plugin_authors_guide() -> None:
    guide = DOCS.read_text(encoding="utf-8")
    missing = [f.name for f in fields(BotType) if f"`{f.name}`" not in guide
               and f.name not in {"name", "summary", "factory"}]
    assert not missing, f"BotType fields missing from docs/bots.md: {missing}"
