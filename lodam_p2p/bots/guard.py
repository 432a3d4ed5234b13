"""Asking a bot, and refusing what the engine refuses.

A bot is foreign code. Whatever it does — raise, return something that is not an
action, return an action for another seat or one the rules forbid — the table must
learn it as one clear error naming the bot, the seat and the move, and go on. The
legal list the bot is checked against comes from the engine (``view.legal``), and the
caller then applies the answer to the engine, which checks it once more.
"""

from __future__ import annotations

from typing import Any

from lodam_p2p.bots.api import Bot, BotError
from lodam_p2p.games import SeatView


class BotAnswerError(BotError):
    """A bot failed to give a legal answer: it raised, or the engine refused its move."""

    def __init__(self, bot_name: str, seat: int, move: str, reason: str) -> None:
        super().__init__(f"bot {bot_name!r} at seat {seat} answered {move}: {reason}")
        self.bot_name = bot_name
        self.seat = seat
        self.move = move
        self.reason = reason


def describe(action: object) -> str:
    """A move in the game's words (``play 7H``, ``make no offer``), or what it was instead.

    Every game's actions carry the acting ``seat`` and say themselves in ``str``."""
    seat = getattr(action, "seat", None)
    if isinstance(seat, int) and not isinstance(seat, bool):
        return str(action)
    return f"{action!r} (not an action)"


def ask(bot: Bot, bot_name: str, view: SeatView) -> Any:
    """The bot's answer to ``view``, checked against the engine's legal list.

    Raises :class:`BotAnswerError` when the bot raises, returns a non-action, or returns
    an action that is not among ``view.legal``.
    """
    try:
        action = bot.decide(view)
    except Exception as err:  # foreign code: any failure is the bot's error
        raise BotAnswerError(
            bot_name, view.seat, "nothing", f"raised {type(err).__name__}: {err}"
        ) from err
    if action not in view.legal:
        raise BotAnswerError(bot_name, view.seat, describe(action), _why_illegal(action, view))
    return action


def _why_illegal(action: object, view: SeatView) -> str:
    legal = ", ".join(describe(a) for a in view.legal[:8])
    more = ", …" if len(view.legal) > 8 else ""
    seat = getattr(action, "seat", view.seat)
    if seat != view.seat:
        return f"the move is for seat {seat}, not seat {view.seat}"
    return f"the engine refuses it (legal: {legal}{more})"
