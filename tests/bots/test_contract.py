"""The typed bot contract: generic in view and action, and written out in docs/bots.md
from the code, so the guide cannot drift."""

from __future__ import annotations

import inspect
import typing
from pathlib import Path

from lodam_p2p.bots import Bot
from lodam_p2p.bots.contract import (
    BEGIN,
    END,
    STRENGTH,
    LodamBot,
    LorumBot,
    contracts,
    guide_section,
)
from lodam_p2p.games import lodam, lorum

DOCS = Path(__file__).resolve().parents[2] / "docs" / "bots.md"


def test_docs_hold_the_contract_exactly_as_the_code_writes_it() -> None:
    guide = DOCS.read_text(encoding="utf-8")
    start, end = guide.index(BEGIN), guide.index(END) + len(END)
    assert guide[start:end] == guide_section(), (
        "docs/bots.md differs from the code: paste `python -m lodam_p2p.bots.contract`")


def test_every_game_documents_view_decisions_and_actions() -> None:
    section = guide_section()
    for contract in contracts():
        assert f"### {contract.name}" in section
        for member in contract.decision:
            assert f"| `{member.name}` |" in section
        for action in contract.actions:
            assert f"| `{action.__name__}` |" in section
    for name in ("PLAY", "LAY", "ANNOUNCE", "Play", "Lay", "Pass", "Announce"):
        assert f"`{name}`" in section


def test_the_bot_protocol_is_generic_and_names_no_any() -> None:
    hints = typing.get_type_hints(Bot.decide)
    assert typing.Any not in hints.values()
    assert len(Bot.__parameters__) == 2  # type: ignore[attr-defined]
    assert typing.get_args(LodamBot) == (lodam.PlayerView, lodam.Action)
    assert typing.get_args(LorumBot) == (lorum.PlayerView, lorum.Action)
    assert "Any" not in str(inspect.signature(Bot.decide))


def test_what_the_guide_says_of_card_strength_holds() -> None:
    # Lodam: a rank's value is its face, not its strength: under Parlett the ten beats
    # the king although its value is lower.
    ten, king = lodam.Card.parse("TH"), lodam.Card.parse("KH")
    assert ten.rank < king.rank
    assert lodam.rank_strength(ten, lodam.RankOrder.PARLETT) > lodam.rank_strength(
        king, lodam.RankOrder.PARLETT)
    assert lodam.rank_strength(ten, lodam.RankOrder.WILLUGHBY) < lodam.rank_strength(
        king, lodam.RankOrder.WILLUGHBY)
    assert "`PARLETT` ranks A T K Q J 9" in STRENGTH["lodam"]
    # Lorum: the value is the strength, seven lowest, ace highest.
    assert [rank.value for rank in lorum.Rank] == list(range(8))
    assert lorum.Rank.SEVEN.value == 0 and lorum.Rank.ACE.value == 7
    assert "whose value is its strength" in STRENGTH["lorum"]


def test_the_guide_no_longer_says_lorum_comes_later() -> None:
    guide = DOCS.read_text(encoding="utf-8")
    assert "later `lorum`" not in guide and "`lorum`" in guide
