"""The rules page (key ``r``) is the short form of the players' guides in docs/: every
title on the page is a heading of the guide, every word it defines is defined there, and
every key of the help panels (``?``) is in the guide's table of keys. The example keys the
help gives are keys that work."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lodam_p2p.games.lodam import Options as LodamOptions
from lodam_p2p.games.lorum import Contract
from lodam_p2p.games.lorum import Options as LorumOptions
from lodam_p2p.ui.lodam import panels
from lodam_p2p.ui.lorum import panels as lorum_panels
from lodam_p2p.ui.lorum.keys import RANKS, SUITS
from lodam_p2p.ui.rules_page import LODAM_WORDS, LORUM_WORDS, WORDS_TITLE, rules_page

DOCS = Path(__file__).resolve().parents[2] / "docs"
GUIDES = {"lodam": DOCS / "rules-lodam.md", "lorum": DOCS / "rules-lorum.md"}


def _section(text: str, title: str) -> str:
    """The text under the heading ``title`` up to the next heading of its level."""
    match = re.search(rf"^(#+) {re.escape(title)}\n(.*?)(?=^\1 |\Z)", text, re.M | re.S)
    assert match, f"no heading {title!r}"
    return match.group(2)


def _headings(text: str) -> set[str]:
    return {line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")}


def _pages() -> list[tuple[str, list[str]]]:
    lodam = [LodamOptions(), LodamOptions.parse_assignments(
        ["declare_out=true", "trump_memory=true", "exchanges=off", "winning=true"])]
    pages = [("lodam", [p.title for p in rules_page("lodam", o)]) for o in lodam]
    for players in (3, 4):
        for contract in (None, *Contract):
            page = rules_page("lorum", LorumOptions(), contract, players)
            pages.append(("lorum", [p.title for p in page]))
    return pages


@pytest.mark.parametrize(("game", "titles"), _pages())
def test_every_title_of_the_rules_page_is_a_heading_of_the_guide(
        game: str, titles: list[str]) -> None:
    headings = _headings(GUIDES[game].read_text(encoding="utf-8"))
    for title in titles:
        assert title.removeprefix("Now: ") in headings, (game, title)


@pytest.mark.parametrize(("game", "words"), [("lodam", LODAM_WORDS), ("lorum", LORUM_WORDS)])
def test_every_word_the_page_defines_is_defined_in_the_guide(
        game: str, words: tuple[tuple[str, str], ...]) -> None:
    glossary = _section(GUIDES[game].read_text(encoding="utf-8"), WORDS_TITLE).lower()
    for word, _meaning in words:
        assert f"**{word.lower()}" in glossary, (game, word)


def test_the_lodam_guide_defines_the_jargon_of_the_table() -> None:
    glossary = _section(GUIDES["lodam"].read_text(encoding="utf-8"), WORDS_TITLE)
    for word in ("coat", "loader", "eldest", "talon", "renounce", "swallow", "trump",
                 "counters", "void", "revoke", "(silent)", "audit"):
        assert f"**{word}**" in glossary, word


def _key_cells(game: str) -> list[str]:
    keys = _section(GUIDES[game].read_text(encoding="utf-8"), "Keys")
    rows = [line.split("|")[1].strip() for line in keys.splitlines()
            if line.startswith("| ") and not line.startswith("| key")]
    assert rows, game
    return rows


@pytest.mark.parametrize(("game", "help_rows"), [("lodam", panels.HELP),
                                                 ("lorum", lorum_panels.HELP)])
def test_every_key_of_the_help_is_in_the_guide(
        game: str, help_rows: tuple[tuple[str, str], ...]) -> None:
    cells = _key_cells(game)
    for keys, _what in help_rows:
        for key in filter(None, keys.split("  ")):
            assert any(key == cell or key in cell.split("  ") or key in cell.split()
                       for cell in cells), (game, key)


def test_the_example_cards_of_the_lorum_help_are_cards_one_can_type() -> None:
    examples = dict(lorum_panels.HELP)["type a card"].split("…")[0]
    for typed in (word.strip() for word in examples.split(",")):
        rank, suit = typed[:-1], typed[-1]
        assert rank in (*RANKS, "10") and suit in SUITS, typed


def test_the_rules_page_says_what_a_renounce_is_and_which_key_swallows() -> None:
    text = " ".join(p.text for p in rules_page("lodam", LodamOptions()))
    assert "(a renounce)" in text and "swallow it (y" in text and "(p)" in text


def test_the_keys_panel_shows_every_key_and_the_words_whole_at_80_by_24() -> None:
    from lodam_p2p.ui.lodam.controller import Controller
    from lodam_p2p.ui.lodam.model import Panel
    from lodam_p2p.ui.lodam.table_view import render
    from tests.ui.support import model_of, new_deal

    model = model_of(new_deal().view(0))
    Controller(model, answer=lambda action: None, leave=lambda: None).key("?")
    assert model.panel is Panel.HELP
    text = render(model, 80, 24, 0.0).text()
    for keys, _what in panels.HELP:
        assert keys in text
    for word, _meaning in LODAM_WORDS:
        assert word in text
    assert "Esc or ? closes this" in text  # the panel's last line: nothing cut off
