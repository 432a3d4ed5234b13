"""What every person's seat shares, whatever the game: one question at a time.

The table driver awaits a seat's ``decide``; the person answers later, from a key
handler. :class:`SeatedPerson` keeps that meeting point — the question put on the
screen's model, a future the key handler resolves through :meth:`SeatedPerson.answer`,
the model told when the answer is in — and the :attr:`~SeatedPerson.hold` event that the
bots beside the person wait on while an end-of-deal panel is open. The Lodam seat
(:class:`~lodam_p2p.ui.lodam.player.TerminalPlayer`) and the Lorum seat
(:class:`~lodam_p2p.ui.lorum.player.LorumPlayer`) differ only in what they make of the
events and when they answer without asking.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from lodam_p2p.player import Notice, TableEvent, ViewChanged

log = logging.getLogger(__name__)

#: The game's answer to a question (a Lodam or a Lorum action).
ActionT = TypeVar("ActionT")


class Asking(Protocol):
    """The part of a screen's model that shows a question."""

    def ask(self, view: Any, /) -> object:
        """Put the question of ``view`` on the screen."""

    def answered(self) -> None:
        """The question is answered: take it off the screen."""


class SeatedPerson(Generic[ActionT]):
    """A person's seat: the question on the screen and the hold (see the module
    docstring). ``changed`` is called after every change of the model."""

    def __init__(self, model: Asking) -> None:
        self.hold = asyncio.Event()
        self.hold.set()
        #: Called after every change of the model (the application redraws).
        self.changed: Callable[[], None] = lambda: None
        self._asking = model
        self._pending: asyncio.Future[ActionT] | None = None

    async def ask(self, view: Any) -> ActionT:
        """Put ``view``'s question on the screen and wait for the person's answer."""
        future: asyncio.Future[ActionT] = asyncio.get_running_loop().create_future()
        self._pending = future
        self._asking.ask(view)
        self.changed()
        try:
            action = await future
        finally:
            self._pending = None
            self._asking.answered()
            self.changed()
        log.info("decided %s", action)
        return action

    def answer(self, action: ActionT) -> None:
        """The person's answer to the question on the screen."""
        if self._pending is not None and not self._pending.done():
            self._pending.set_result(action)


def describe(event: TableEvent, view_words: Callable[[Any], str]) -> str:
    """A short line for the file log: a view summed up by ``view_words``, not dumped."""
    if isinstance(event, ViewChanged):
        return f"view: {view_words(event.view)} action={event.last_action}"
    if isinstance(event, Notice):
        return f"notice {event.level.value}: {event.text}"
    return repr(event)
