"""Both games' hands meet the table machine through one face, :class:`HandMachine`.

The static half is in :mod:`lodam_p2p.session.handmachine` itself: mypy (run on the
whole package) checks there that a Lodam :class:`HandPlay` and a Lorum :class:`GameHand` are
each a :class:`HandMachine`. Here the same holds of real hands at run time, member by
member, and the table machine uses nothing of a hand that the protocol does not name.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from lodam_p2p.games import Game, get_game
from lodam_p2p.session.gamehand import GameHand
from lodam_p2p.session.handmachine import HandMachine
from lodam_p2p.session.handplay import HandPlay
from lodam_p2p.session.keys import new_identity, seeded
from lodam_p2p.session.wire import raw_public

SESSION = Path(__file__).resolve().parents[2] / "lodam_p2p" / "session"
#: the hand machines themselves, and the protocol: not its users
_HANDS = {"handmachine.py", "handplay.py", "gamehand.py", "handbase.py", "trading.py",
          "moves.py", "handtypes.py", "audit.py"}
_MEMBERS = sorted(
    name for name in (set(vars(HandMachine)) | set(HandMachine.__annotations__))
    if not name.startswith("_"))


def _hand(game: Game, seat: int | None) -> HandMachine:
    players = 4
    entropies = [seeded(3, place) for place in range(players)]
    identities = [new_identity(e) for e in entropies]
    match = game.start_match(game.parse_options(()), players, 0)
    kind = GameHand if game.exchanges is None else HandPlay
    return kind(game, match, tuple(raw_public(i) for i in identities), seat,
                table_id=b"t" * 16, hand=1,
                identity=identities[seat] if seat is not None else None,
                entropy=entropies[seat if seat is not None else 0], now=0.0, timeout=30.0)


@pytest.mark.parametrize("title", ["lodam", "lorum"])
@pytest.mark.parametrize("seat", [1, None])
def test_each_game_hand_is_a_hand_machine(title: str, seat: int | None) -> None:
    hand = _hand(get_game(title), seat)
    assert isinstance(hand, HandMachine)
    missing = [name for name in _MEMBERS if not hasattr(hand, name)]
    assert missing == []
    assert hand.step == 0 and hand.me == seat
    assert bool(hand.outbox) is (seat is not None)  # a seated hand begins with its keys
    assert hand.holder_turn() is None and not hand.silenced and not hand.dealt


def test_a_hand_without_a_member_is_not_one() -> None:
    class Partial:
        step = 0

    assert not isinstance(Partial(), HandMachine)


def _is_hand(node: ast.expr) -> bool:
    """``self.hand`` (or any part's ``….hand``), or a hand the machine makes
    (``self.hand_type(…)``, ``self.game_hand()``)."""
    if isinstance(node, ast.Call):
        node = node.func
    return isinstance(node, ast.Attribute) and node.attr in ("hand", "hand_type", "game_hand")


def _used_by_the_machine() -> set[str]:
    """Every attribute the session's other modules read on a hand: on ``self.hand``, and
    on a local name bound to one (``hand = self.hand``, ``hand, ballot = self.hand, …``)."""
    used: set[str] = set()
    for path in SESSION.glob("*.py"):
        if path.name in _HANDS:
            continue
        for function in ast.walk(ast.parse(path.read_text())):
            if not isinstance(function, ast.FunctionDef):
                continue
            names: set[str] = set()
            for node in ast.walk(function):
                if isinstance(node, ast.Assign):
                    pairs: list[tuple[ast.expr, ast.expr]] = []
                    for target in node.targets:
                        if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                            pairs += zip(target.elts, node.value.elts, strict=False)
                        else:
                            pairs.append((target, node.value))
                    names |= {t.id for t, v in pairs if isinstance(t, ast.Name) and _is_hand(v)}
            for node in ast.walk(function):
                if isinstance(node, ast.Attribute) and (_is_hand(node.value) or (
                        isinstance(node.value, ast.Name) and node.value.id in names)):
                    used.add(node.attr)
    return used


def test_the_protocol_names_what_the_machine_uses() -> None:
    used = _used_by_the_machine()
    assert "step" in used and "route" in used  # the walk finds the machine's reads
    assert used - set(_MEMBERS) == set()
