"""Shared helpers of the rules tests: decks built from wanted hands, short action scripts."""

from __future__ import annotations

from typing import Any

from lodam_p2p.games.lodam import FULL_PACK, SHORT_PACK, Card, Options
from lodam_p2p.games.lodam.replay import replay_scenario


def deck_for(
    hands: dict[int, str],
    dealer: int,
    players: int,
    talon_top: str = "",
    lives: list[int] | None = None,
    *,
    short: bool = False,
) -> list[str]:
    """The deck (top first) that deals ``hands`` (seat -> cards as dealt, space-separated)
    when ``dealer`` deals; the talon starts with ``talon_top``, then the rest of the pack."""
    active = [True] * players if lives is None else [life > 0 for life in lives]
    order = []
    seat = dealer
    while len(order) < sum(active):
        seat = (seat + 1) % players
        if active[seat]:
            order.append(seat)
    assert sorted(order) == sorted(hands), "give a hand for every active seat"
    m = len(order)
    size = len(hands[order[0]].split())
    deck = [""] * (m * size)
    for k, s in enumerate(order):
        cards = hands[s].split()
        assert len(cards) == size
        for j, card in enumerate(cards):
            deck[k + j * m] = card
    deck += talon_top.split()
    pack = SHORT_PACK if short else FULL_PACK
    deck += [str(c) for c in pack if str(c) not in deck]
    assert len(set(deck)) == len(deck) == len(pack)
    return deck


def acts(script: str) -> list[dict[str, Any]]:
    """Actions from a short script: ``"0:9D 1:KD 2:offer=KS 3:accept=QD 3:decline
    1:swallow 1:leave 3:declare 3:declare@1 3:pass 5:challenge@1 5:nochallenge"``."""
    out: list[dict[str, Any]] = []
    for token in script.split():
        seat_text, _, move = token.partition(":")
        seat = int(seat_text)
        name, _, arg = move.partition("=")
        name, _, target = name.partition("@")
        out.append({"seat": seat, **_move(name, arg, target)})
    return out


def _move(name: str, arg: str, target: str) -> dict[str, Any]:
    simple: dict[str, dict[str, Any]] = {
        "decline": {"decline": True},
        "swallow": {"swallow": True},
        "leave": {"swallow": False},
        "pass": {"declare_out": False},
        "nooffer": {"offer": None},
        "nochallenge": {"challenge": None},
    }
    if name in simple:
        return simple[name]
    if name == "offer":
        return {"offer": arg}
    if name == "accept":
        return {"accept": arg}
    if name == "declare":
        return {"declare_out": True, **({"challenge": int(target)} if target else {})}
    if name == "challenge":
        return {"challenge": int(target)}
    Card.parse(name)
    return {"play": name}


def run(
    hands: dict[int, str],
    script: str,
    *,
    dealer: int,
    players: int,
    options: dict[str, Any] | None = None,
    talon_top: str = "",
    lives: list[int] | None = None,
) -> dict[str, Any]:
    """Replay a scenario built from wanted hands; the replay result object."""
    opts = dict(options or {})
    size = len(next(iter(hands.values())).split())
    if "hand_size" not in opts and size != Options.from_mapping(opts).hand_size_for(len(hands)):
        opts["hand_size"] = size
    parsed = Options.from_mapping(opts)
    dealt_lives = None if parsed.winning else lives
    short = parsed.short_deck(
        players if dealt_lives is None else sum(1 for x in dealt_lives if x > 0)
    )
    scenario: dict[str, Any] = {
        "game": "lodam",
        "players": players,
        "dealer": dealer,
        "options": opts,
        "deck": deck_for(hands, dealer, players, talon_top, dealt_lives, short=short),
        "actions": acts(script),
    }
    if lives is not None:
        scenario["lives"] = lives
    return replay_scenario(scenario)
