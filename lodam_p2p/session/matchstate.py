"""The match state a journal keeps and a returning seat is told: make, rebuild, check.

After each settled or voided deal every peer agrees on the match's state: the hand
number, the audits and blames, and the match as its game saves it
(:meth:`Game.match_state <lodam_p2p.games.Game.match_state>`). :func:`match_snapshot`
makes that state, :func:`match_from` rebuilds the match from it; the seat's journal
(:mod:`.journal`) keeps it, and a RESUME or ATTEST carries it to a seat that comes back
(:mod:`.rejoin`).

A state that comes from another peer is not trusted: :func:`check_snapshot` refuses
anything that is not a sound snapshot (no coercion, each field of its own type and
range), and :func:`contradiction` says why a sound one cannot follow what this seat's
own journal holds — a match only moves forward.

Pure: no I/O, no clock; the game comes in as an argument (the default game when None).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lodam_p2p.games import DEFAULT_GAME, Game, GameError, get_game

#: What a snapshot keeps of the session itself, beside the game's match state.
_SESSION_KEYS = ("hand_no", "audits", "blames")


def match_snapshot(match: Any, hand_no: int, audits: int, blames: list[str],
                   game: Game | None = None) -> dict[str, Any]:
    """The match state every peer agrees on after a settled or voided deal: the hand
    number, audits and blames, and the match as its ``game`` (the default game when
    None) saves it (:meth:`Game.match_state <lodam_p2p.games.Game.match_state>`).

    The default game's state lies beside the session's fields, as it always did (journals
    and RESUME messages written before other games existed read alike); another game's
    lies under ``game``, with ``deals_played`` beside it."""
    game = _game(game)
    session = {"hand_no": hand_no, "audits": audits, "blames": list(blames)}
    if game.name == DEFAULT_GAME:
        return {**session, **game.match_state(match)}
    return {**session, "deals_played": match.deals_played, "game": game.match_state(match)}


def match_from(snapshot: dict[str, Any], options: Any, game: Game | None = None,
               players: int = 0) -> Any:
    """Rebuild the match from :func:`match_snapshot` of ``game`` (the default game when
    None) at a table of ``players``; ``ValueError`` if unsound."""
    game = _game(game)
    if game.name == DEFAULT_GAME:
        state = {k: v for k, v in snapshot.items() if k not in _SESSION_KEYS}
        try:
            return game.restore_match(options, players, state)
        except ValueError as err:
            raise ValueError(f"unsound match state: {err}") from None
    try:
        match = game.restore_match(options, players, snapshot["game"])
    except (KeyError, GameError) as err:
        raise ValueError(f"unsound match state: {err}") from None
    if match.deals_played != snapshot.get("deals_played"):
        raise ValueError("unsound match state: deals played differ")
    return match


def _game(game: Game | None) -> Game:
    return get_game(DEFAULT_GAME) if game is None else game


#: Most blames a match state may carry, and the longest one (as on the wire).
_MAX_BLAMES, _MAX_BLAME_CHARS = 64, 256
#: What a deal does not change: a state that played no deal since the journal's must
#: hold these exactly as the journal does.
_PER_DEAL = ("lives", "dealer", "active", "eliminated_in", "is_over", "winners")


def check_snapshot(state: object, players: int) -> dict[str, Any]:
    """``state`` if it is a sound :func:`match_snapshot` of a ``players``-seat match;
    ``ValueError`` saying what is wrong otherwise. Strict: no coercion, every field of
    its own type and range (it may come from another peer). The state of a game played
    through the game interface (under ``game``) is the game's to check
    (:func:`match_from`)."""
    if not isinstance(state, dict):
        raise ValueError("match state is not an object")
    _int(state, "hand_no", 2**32 - 1)
    _int(state, "audits", 2**32 - 1)
    _int(state, "deals_played", 2**32 - 1)
    blames = state.get("blames")
    if not (isinstance(blames, list) and len(blames) <= _MAX_BLAMES and all(
            isinstance(b, str) and len(b) <= _MAX_BLAME_CHARS for b in blames)):
        raise ValueError("match state 'blames' is not a short list of texts")
    if "game" in state:
        if not isinstance(state["game"], dict):
            raise ValueError("match state 'game' is not an object")
        return state
    _int(state, "dealer", players - 1)
    if not isinstance(state.get("is_over"), bool):
        raise ValueError("match state 'is_over' is not a boolean")
    _seats(state, "lives", players, lambda v: _is_int(v) and 0 <= v < 2**16)
    _seats(state, "active", players, lambda v: isinstance(v, bool))
    _seats(state, "eliminated_in", players, lambda v: v is None or (_is_int(v) and v >= 0))
    winners = state.get("winners")
    if not (isinstance(winners, list) and len(set(map(repr, winners))) == len(winners)
            and all(_is_int(w) and 0 <= w < players for w in winners)):
        raise ValueError("match state 'winners' are not distinct seats")
    return state


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(state: dict[str, Any], key: str, most: int) -> None:
    value = state.get(key)
    if not (isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= most):
        raise ValueError(f"match state {key!r} is not a number from 0 to {most}")


def _seats(state: dict[str, Any], key: str, players: int, item: Callable[[Any], bool]
           ) -> None:
    value = state.get(key)
    if not (isinstance(value, list) and len(value) == players and all(map(item, value))):
        raise ValueError(f"match state {key!r} is not one fit value per seat")


def contradiction(state: dict[str, Any], kept: dict[str, Any] | None) -> str | None:
    """Why ``state`` (sound, from another peer) cannot follow ``kept`` (this seat's own
    journal snapshot, sound), or None if it can.

    A match only moves forward: the hand number, deals played and audits never go back,
    blames are only added, an eliminated seat stays out, and each deal takes a hand of
    its own. Without a deal played since ``kept``, nothing a deal settles (counters,
    dealer, who is in, the winners) may differ from it.
    """
    if kept is None:
        return None
    hands = state["hand_no"] - kept["hand_no"]
    deals = state["deals_played"] - kept["deals_played"]
    if hands < 0:
        return f"hand {state['hand_no']} is before the journal's hand {kept['hand_no']}"
    if not 0 <= deals <= hands:
        return f"{deals} deals played in {hands} hands"
    if state["audits"] < kept["audits"]:
        return "fewer audits than the journal holds"
    if state["blames"][:len(kept["blames"])] != kept["blames"]:
        return "blames differ from the journal's"
    if ("game" in state) != ("game" in kept):
        return "a state of another game than the journal's"
    if "game" in kept:
        return "the match changed without a deal played" if deals == 0 and (
            state["game"] != kept["game"]) else None
    for seat, out in enumerate(kept["eliminated_in"]):
        if out is not None and state["eliminated_in"][seat] != out:
            return f"seat {seat}, eliminated, is back in"
    if deals == 0:
        changed = [key for key in _PER_DEAL if state.get(key) != kept.get(key)]
        if changed:
            return f"{', '.join(changed)} changed without a deal played"
    return None
