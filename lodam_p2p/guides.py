"""The players' guides and other pages of docs/, for an installed ``lodam`` as for a clone.

A clone reads them from its docs/ folder; a wheel carries a copy inside the package
(``lodam_p2p/docs/``, put there by setup.py's build step), so that ``lodam rules guide``
shows the same text wherever the program was installed from.
"""

from __future__ import annotations

from pathlib import Path

#: The guide of each game, by the game's name.
GAME_GUIDES = {"lodam": "rules-lodam.md", "lorum": "rules-lorum.md"}

_HERE = Path(__file__).resolve().parent
#: Where the pages are looked for: the copy inside an installed package, then a clone's.
PLACES = (_HERE / "docs", _HERE.parent / "docs")


def guide_path(name: str) -> Path | None:
    """The file of the page ``name`` (``rules-lorum.md``), or ``None`` if none is found."""
    for place in PLACES:
        path = place / name
        if path.is_file():
            return path
    return None


def read_guide(name: str) -> str:
    """The text of the page ``name``; ``FileNotFoundError`` if this install lacks it."""
    path = guide_path(name)
    if path is None:
        raise FileNotFoundError(f"{name} is not installed with this copy of lodam")
    return path.read_text(encoding="utf-8")
