"""Replay a scripted Lorum deal: the ``"game": "lorum"`` format of ``lodam rules replay``.

A scenario names the table (players, dealer, contract, options), the shuffled deck and
the actions in order: ``{"seat": s, "play": c}`` (a card to a trick, a Quartet lead, a
Lorum lay) or ``{"seat": s, "announce": true}``. Moves without a choice are not actions:
the deal takes them itself (Quartet run cards after the lead, Lorum passes, blind plays,
set-aside cards). The announcement defaults to no: when the deal awaits it and the next
action is not that seat's announcement, the default applies and the action waits.
Match-level options (``rounds``, ``contracts``, ``scoring``, ``first_last_short``,
``breach_points``) are accepted and change nothing in a single deal.

The first illegal or impossible action stops the deal: the result shows the tricks and
lays completed before it (and who had emptied their hand), points all 0 and
``unused_actions`` null; the deal still passes to the left (``next_dealer``), as after
any deal that is not a proven breach. Malformed input raises :class:`ReplayFormatError`
(a ``ValueError``), distinct from any illegal move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lodam_p2p.games.kit.rules import ReplayFormatError, card_field, field, int_field
from lodam_p2p.games.kit.rules import run_script as run_deal_script
from lodam_p2p.games.lorum.actions import (
    Action,
    Announce,
    Lay,
    MalformedInput,
    Play,
)
from lodam_p2p.games.lorum.cards import Card
from lodam_p2p.games.lorum.deal import Deal
from lodam_p2p.games.lorum.options import MAX_PLAYERS, MIN_PLAYERS, Contract, Options


def replay_scenario(obj: Mapping[str, Any]) -> dict[str, Any]:
    """Replay one scenario; the result object of the replay format."""
    if not isinstance(obj, Mapping):
        raise ReplayFormatError("a scenario must be a JSON object")
    if obj.get("game") != "lorum":
        raise ReplayFormatError(f'"game" must be "lorum", got {obj.get("game")!r}')
    options = Options.from_mapping(field(obj, "options", Mapping, {}))
    players = int_field(obj, "players", MIN_PLAYERS, MAX_PLAYERS)
    dealer = int_field(obj, "dealer", 0, players - 1)
    contract = _contract(obj.get("contract"))
    deck = card_field(field(obj, "deck", list), "deck", Card.parse)
    lay = contract is Contract.LORUM
    raw_actions = field(obj, "actions", list, [])
    actions = [parse_action(a, i, lay) for i, a in enumerate(raw_actions)]
    deal = Deal.start(options, contract, dealer, deck, players=players)
    used, error = run_script(deal, actions)
    return _report(deal, error, None if error else len(actions) - used)


def run_script(deal: Deal, actions: Sequence[Action]) -> tuple[int, dict[str, Any] | None]:
    """Drive ``deal`` by ``actions`` with the default rule; (actions used, error or None)."""
    return run_deal_script(deal, actions, _takes_default)


def _takes_default(action: Action | None, seat: int, awaiting: object) -> bool:
    """Whether the default (no announcement) goes first: the next action is not the
    awaiting seat's announcement."""
    return not isinstance(action, Announce) or action.seat != seat


def parse_action(raw: object, index: int, lay: bool) -> Action:
    """One scripted action (``lay``: a ``play`` is a Lorum lay); ``ReplayFormatError``
    naming its index if malformed."""
    if not isinstance(raw, Mapping):
        raise ReplayFormatError(f"action {index} must be an object, got {raw!r}")
    seat = raw.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise ReplayFormatError(f'action {index} needs an integer "seat", got {seat!r}')
    keys = set(raw) - {"seat"}
    if keys == {"play"}:
        text = raw["play"]
        try:
            card = Card.parse(text)
        except ValueError as err:
            raise ReplayFormatError(f"action {index}: {err}") from None
        return Lay(seat, card) if lay else Play(seat, card)
    if keys == {"announce"}:
        if not isinstance(raw["announce"], bool):
            raise ReplayFormatError(f'action {index}: "announce" must be true or false')
        return Announce(seat, raw["announce"])
    raise ReplayFormatError(f"action {index} has an unknown shape: keys {sorted(keys)}")


def action_to_json(action: Action) -> dict[str, Any]:
    """An action in the replay format; ``parse_action`` reads it back. A pass, being no
    choice, has no form here."""
    if isinstance(action, Announce):
        return {"seat": action.seat, "announce": action.announced}
    if isinstance(action, Play | Lay):
        return {"seat": action.seat, "play": str(action.card)}
    raise MalformedInput(f"{action!r} is not a scripted action")


def _contract(value: object) -> Contract:
    for contract in Contract:
        if value == contract.value:
            return contract
    names = ", ".join(c.value for c in Contract)
    raise ReplayFormatError(f'"contract" must be one of {names}, got {value!r}')


def _report(deal: Deal, error: dict[str, Any] | None, unused: int | None) -> dict[str, Any]:
    public = deal.public
    return {
        "hands": {str(s): [str(c) for c in hand] for s, hand in enumerate(deal.dealt_hands)},
        "tricks": [
            {
                "leader": t.leader,
                "cards": [[s, str(c)] for s, c in t.cards],
                "winner": t.winner,
                "points": t.points,
            }
            for t in public.tricks
        ],
        "lays": [[s, None if c is None else str(c)] for s, c in public.lays],
        "points": list(public.points) if error is None else [0] * public.players,
        "announced": public.announced,
        "out": list(public.out),
        "next_dealer": (public.dealer + 1) % public.players,
        "error": error,
        "unused_actions": unused,
    }
