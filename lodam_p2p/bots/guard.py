"""Asking a bot, and refusing what the engine refuses.

A bot is foreign code. Whatever it does — raise, return something that is not an
action, return an action for another seat or one the rules forbid — the table must
learn it as one clear error naming the bot, the seat and the move, and go on. The
legal list the bot is checked against comes from the engine (``view.legal``), and the
caller then applies the answer to the engine, which checks it once more.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lodam_p2p.bots.api import Bot, BotError
from lodam_p2p.bots.budget import over_budget
from lodam_p2p.bots.faults import (
    EXCEPTION,
    ILLEGAL,
    MALFORMED,
    OVER_BUDGET,
    WRONG_SEAT,
    BotFault,
    format_trace,
)
from lodam_p2p.games import SeatView


class BotAnswerError(BotError):
    """A bot failed to give a legal answer: it raised, or the engine refused its move."""

    def __init__(self, bot_name: str, seat: int, move: str, reason: str, *,
                 kind: str = ILLEGAL, decision: str = "?", trace: str = "",
                 answer: Any = None) -> None:
        super().__init__(f"bot {bot_name!r} at seat {seat} answered {move}: {reason}")
        self.bot_name = bot_name
        self.seat = seat
        self.move = move
        self.reason = reason
        self.kind = kind  #: one of :data:`lodam_p2p.bots.faults.KINDS`
        self.decision = decision  #: what was asked (:func:`decision_of`)
        self.trace = trace  #: the traceback of an exception in ``decide``
        self.answer = answer  #: the bot's answer (an over-budget one may be legal)
        self.seconds = 0.0  #: how long an over-budget decision took

    def fault(self, fallback: str = "") -> BotFault:
        """This error as a :class:`~lodam_p2p.bots.faults.BotFault`."""
        return BotFault(self.kind, self.bot_name, self.seat, self.decision, str(self),
                        self.trace, fallback)


def decision_of(view: object) -> str:
    """The decision ``view`` asks for, by name (``PLAY``, ``OFFER`` …), or ``?``."""
    awaiting = getattr(view, "awaiting", None)
    name = getattr(awaiting, "name", None)
    return name if isinstance(name, str) else "?"


def describe(action: object) -> str:
    """A move in the game's words (``play 7H``, ``make no offer``), or what it was instead.

    Every game's actions carry the acting ``seat`` and say themselves in ``str``."""
    seat = getattr(action, "seat", None)
    if isinstance(seat, int) and not isinstance(seat, bool):
        return str(action)
    return f"{action!r} (not an action)"


def ask(bot: Bot[Any, Any], bot_name: str, view: SeatView) -> Any:
    """The bot's answer to ``view``, checked against the engine's legal list.

    Raises :class:`BotAnswerError` when the bot raises, returns a non-action, or returns
    an action that is not among ``view.legal``; its ``kind`` says which.
    """
    return ask_timed(bot, bot_name, view)[0]


def ask_timed(bot: Bot[Any, Any], bot_name: str, view: SeatView, *,
              clock: Callable[[], float] | None = None,
              budget_s: float | None = None) -> tuple[Any, float]:
    """The bot's checked answer and the seconds it took by ``clock`` (0 without one).

    With ``budget_s`` a decision over the budget and its margin raises
    :class:`BotAnswerError` of kind ``over-budget`` (after the other checks: a wrong
    answer is reported as wrong, whatever its time).
    """
    decision = decision_of(view)
    started = clock() if clock is not None else 0.0
    try:
        action = bot.decide(view)
    except Exception as err:  # foreign code: any failure is the bot's error
        raise BotAnswerError(
            bot_name, view.seat, "nothing", f"raised {type(err).__name__}: {err}",
            kind=EXCEPTION, decision=decision, trace=format_trace(err),
        ) from err
    seconds = clock() - started if clock is not None else 0.0
    if action not in view.legal:
        raise BotAnswerError(bot_name, view.seat, describe(action), _why_illegal(action, view),
                             kind=_kind(action, view), decision=decision, answer=action)
    if budget_s is not None and over_budget(seconds, budget_s):
        late = BotAnswerError(bot_name, view.seat, describe(action),
                              f"took {seconds:.3f} s, over its budget of {budget_s:g} s",
                              kind=OVER_BUDGET, decision=decision, answer=action)
        late.seconds = seconds
        raise late
    return action, seconds


def _kind(action: object, view: SeatView) -> str:
    seat = getattr(action, "seat", None)
    if not isinstance(seat, int) or isinstance(seat, bool):
        return MALFORMED
    return WRONG_SEAT if seat != view.seat else ILLEGAL


def _why_illegal(action: object, view: SeatView) -> str:
    legal = ", ".join(describe(a) for a in view.legal[:8])
    more = ", …" if len(view.legal) > 8 else ""
    seat = getattr(action, "seat", view.seat)
    if seat != view.seat:
        return f"the move is for seat {seat}, not seat {view.seat}"
    return f"the engine refuses it (legal: {legal}{more})"
