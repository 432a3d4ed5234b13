"""A bot's failure as one value: what went wrong, where, and how to say it.

Every place a bot plays (the arena, ``lodam play``, ``host``, ``join``, ``bot``) turns a
failed decision into a :class:`BotFault` and says it the same way: a warning in the log
naming the bot, the seat, the decision and what it did (:func:`log_fault`; with the
traceback's last frame, the whole traceback when the log shows INFO, i.e. ``-v``), a
counter on the screen for a person at the table, and an entry of ``bot_errors`` in the
``--json`` result (:meth:`BotFault.to_json`, documented in ``docs/results.md``).

The kinds (:data:`KINDS`):

- ``exception``: ``decide`` raised;
- ``malformed``: the answer is not an action of the game;
- ``wrong-seat``: an action for another seat;
- ``illegal``: an action the rules refuse here (not in ``view.legal``, or refused by
  the engine);
- ``over-budget``: the decision took longer than the bot's budget and its margin
  (:mod:`lodam_p2p.bots.budget`).
"""

from __future__ import annotations

import logging
import traceback
from dataclasses import dataclass

EXCEPTION = "exception"
MALFORMED = "malformed"
WRONG_SEAT = "wrong-seat"
ILLEGAL = "illegal"
OVER_BUDGET = "over-budget"
#: Every kind of bot error, in the order above.
KINDS = (EXCEPTION, MALFORMED, WRONG_SEAT, ILLEGAL, OVER_BUDGET)


@dataclass(frozen=True, slots=True)
class BotFault:
    """One failed decision of one bot (plain values: it crosses process boundaries)."""

    kind: str  #: one of :data:`KINDS`
    bot: str  #: the bot's name at the table (its type, or its arena label)
    seat: int
    decision: str  #: what was asked (``PLAY``, ``OFFER`` …; ``?`` when the view says not)
    message: str  #: one line: bot, seat, what it answered and why that failed
    trace: str = ""  #: the traceback of an exception, else empty
    fallback: str = ""  #: who played the move instead (a bot's name, ``first legal``)

    def to_json(self) -> dict[str, object]:
        """The ``bot_errors`` entry of a ``--json`` result (docs/results.md)."""
        out: dict[str, object] = {"kind": self.kind, "bot": self.bot, "seat": self.seat,
                                  "decision": self.decision, "message": self.message}
        if self.fallback:
            out["fallback"] = self.fallback
        return out

    @property
    def where(self) -> str:
        """The traceback's last frame (``file:line in function``), or empty."""
        return last_frame(self.trace)


def format_trace(err: BaseException) -> str:
    """The whole traceback of ``err`` as text."""
    return "".join(traceback.format_exception(type(err), err, err.__traceback__))


def last_frame(trace: str) -> str:
    """``file:line in function`` of the innermost frame of a formatted traceback."""
    frames = [line.strip() for line in trace.splitlines() if line.strip().startswith('File "')]
    if not frames:
        return ""
    # File "path", line 12, in decide
    parts = frames[-1].split(", ")
    path = parts[0][len('File "'):].rstrip('"')
    line = parts[1].removeprefix("line ") if len(parts) > 1 else "?"
    func = parts[2].removeprefix("in ") if len(parts) > 2 else "?"
    return f"{path}:{line} in {func}"


def log_fault(logger: logging.Logger, fault: BotFault) -> None:
    """Say ``fault`` as a warning: one line with the innermost frame; the whole
    traceback too when ``logger`` shows INFO (``-v``)."""
    where = fault.where
    text = f"{fault.message} ({fault.kind} at decision {fault.decision}"
    text += f", in {where})" if where else ")"
    if fault.fallback:
        text += f"; {fault.fallback} played the move instead"
    if fault.trace and logger.isEnabledFor(logging.INFO):
        text += "\n" + fault.trace.rstrip()
    logger.warning("%s", text)


def count_line(faults: list[BotFault] | tuple[BotFault, ...], shown: int) -> list[str]:
    """The first ``shown`` messages, then ``… and K more`` when there are more."""
    lines = [fault.message for fault in faults[:shown]]
    if len(faults) > shown:
        lines.append(f"… and {len(faults) - shown} more")
    return lines
