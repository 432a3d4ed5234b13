"""Replay a scripted deal: the ``lodam rules replay`` format (issue 2), a contract.

A scenario names the table (players, dealer, lives, options), the whole deck and the
decisions in order. Decisions the script leaves out take their defaults: whenever the
deal awaits a decision that has a default (no offer, decline, no swallow, no declaration,
no challenge) from seat *s* and the next scripted action is not that kind of decision by
*s*, the default is applied and the scripted action waits. A play has no default.

The first illegal or impossible action stops the deal; the result then shows the deal
so far, no counter changes, and the error. Malformed input raises
:class:`ReplayFormatError` (a ``ValueError``), distinct from any illegal move.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from lodam_p2p.games.kit.rules import ReplayFormatError, card_field, field, int_field
from lodam_p2p.games.kit.rules import run_script as run_deal_script
from lodam_p2p.games.lodam.actions import (
    Action,
    Answer,
    Challenge,
    Declare,
    Offer,
    Play,
    Swallow,
)
from lodam_p2p.games.lodam.cards import Card
from lodam_p2p.games.lodam.deal import Deal
from lodam_p2p.games.lodam.match import Match
from lodam_p2p.games.lodam.options import MAX_PLAYERS, MIN_PLAYERS, Options


def replay_scenario(obj: Mapping[str, Any]) -> dict[str, Any]:
    """Replay one scenario; the result object of the replay format."""
    if not isinstance(obj, Mapping):
        raise ReplayFormatError("a scenario must be a JSON object")
    if obj.get("game") != "lodam":
        raise ReplayFormatError(f'"game" must be "lodam", got {obj.get("game")!r}')
    options = Options.from_mapping(field(obj, "options", Mapping, {}))
    players = int_field(obj, "players", MIN_PLAYERS, MAX_PLAYERS)
    dealer = int_field(obj, "dealer", 0, players - 1)
    lives = _lives(obj, players, options)
    deck = card_field(field(obj, "deck", list), "deck", Card.parse)
    actions = [parse_action(a, i) for i, a in enumerate(field(obj, "actions", list, []))]
    match = Match.resume(options, lives, dealer)
    deal = match.new_deal(deck)
    used, error = run_script(deal, actions)
    match.settle(deal.result().counter_change if error is None else [0] * players)
    return _report(deal, match, error, None if error else len(actions) - used)


def run_script(deal: Deal, actions: Sequence[Action]) -> tuple[int, dict[str, Any] | None]:
    """Drive ``deal`` by ``actions`` with the default rule; (actions used, error or None)."""
    return run_deal_script(deal, actions, _takes_default)


def _takes_default(action: Action | None, seat: int, awaiting: object) -> bool:
    """Whether the default goes first: the next action is not the awaited decision."""
    return action is None or action.decision is not awaiting or action.seat != seat


def parse_action(raw: object, index: int) -> Action:
    """One scripted action; ``ReplayFormatError`` naming its index if malformed."""
    if not isinstance(raw, Mapping):
        raise ReplayFormatError(f"action {index} must be an object, got {raw!r}")
    seat = raw.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise ReplayFormatError(f"action {index} needs an integer \"seat\", got {seat!r}")
    keys = set(raw) - {"seat"}
    try:
        return _ACTION_PARSERS[_shape(keys, index)](seat, raw)
    except ValueError as err:
        raise ReplayFormatError(f"action {index}: {err}") from None


def _shape(keys: set[str], index: int) -> str:
    if keys == {"declare_out", "challenge"}:
        return "declare_out"
    if len(keys) == 1:
        (key,) = keys
        if key in _ACTION_PARSERS:
            return key
    raise ReplayFormatError(f"action {index} has an unknown shape: keys {sorted(keys)}")


def _maybe_card(value: object) -> Card | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"not a card: {value!r}")
    return Card.parse(value)


def _target(value: object) -> int | None:
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise ValueError(f"a challenge names a seat, got {value!r}")


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f'"{name}" must be true or false, got {value!r}')
    return value


def _decline(seat: int, raw: Mapping[str, Any]) -> Action:
    if raw["decline"] is not True:
        raise ValueError('"decline" must be true')
    return Answer(seat, None)


def _play(seat: int, raw: Mapping[str, Any]) -> Action:
    card = _maybe_card(raw["play"])
    if card is None:
        raise ValueError("a play needs a card")
    return Play(seat, card)


def _offer(seat: int, raw: Mapping[str, Any]) -> Action:
    return Offer(seat, _maybe_card(raw["offer"]))


def _accept(seat: int, raw: Mapping[str, Any]) -> Action:
    return Answer(seat, _maybe_card(raw["accept"]))


def _swallow(seat: int, raw: Mapping[str, Any]) -> Action:
    return Swallow(seat, _flag(raw["swallow"], "swallow"))


def _declare(seat: int, raw: Mapping[str, Any]) -> Action:
    return Declare(seat, _flag(raw["declare_out"], "declare_out"), _target(raw.get("challenge")))


def _challenge(seat: int, raw: Mapping[str, Any]) -> Action:
    return Challenge(seat, _target(raw["challenge"]))


_ACTION_PARSERS: dict[str, Callable[[int, Mapping[str, Any]], Action]] = {
    "play": _play,
    "offer": _offer,
    "accept": _accept,
    "decline": _decline,
    "swallow": _swallow,
    "declare_out": _declare,
    "challenge": _challenge,
}


def _lives(obj: Mapping[str, Any], players: int, options: Options) -> list[int]:
    """Counters per seat; missing: the match start (``lives`` each, or 0 each when winning)."""
    if obj.get("lives") is None:
        return [0 if options.winning else options.lives] * players
    lives = obj["lives"]
    if not isinstance(lives, list) or len(lives) != players or not all(
        isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in lives
    ):
        raise ReplayFormatError(f'"lives" must list {players} counts ≥ 0, got {lives!r}')
    return lives


def _report(
    deal: Deal, match: Match, error: dict[str, Any] | None, unused: int | None
) -> dict[str, Any]:
    public = deal.public
    over = error is None
    return {
        "hands": {
            str(s): [str(c) for c in hand]
            for s, hand in enumerate(deal.dealt_hands)
            if public.active[s]
        },
        "talon": [str(c) for c in deal.talon],
        "trump": str(public.trump) if public.trump is not None else None,
        "trump_card": str(public.trump_card) if public.trump_card is not None else None,
        "tricks": [
            {
                "leader": t.leader,
                "cards": [[s, str(c)] for s, c in t.cards],
                "winner": t.winner,
                "points": t.points,
                "swallowed": t.swallowed,
            }
            for t in public.tricks
        ],
        "exchanges": [
            {
                "offerer": x.offerer,
                "offer": str(x.offer),
                "acceptor": x.acceptor,
                "accept": str(x.accept) if x.accept is not None else None,
                "void": x.void,
            }
            for x in deal.exchanges
        ],
        "points": list(public.points),
        "out": public.out if over else None,
        "counter_change": list(public.counter_change) if over else [0] * public.players,
        "next_dealer": match.dealer,
        "match_over": match.is_over,
        "winners": sorted(match.winners),
        "error": error,
        "unused_actions": unused,
    }
