"""What every game's keys share: pure logic, no terminal.

Keys arrive as names (``"left"``, ``"enter"``, ``"escape"`` …) or single characters; a
letter counts in either case. With a panel open a key goes to the panel, else to the
table. Whatever the game, a key takes the choice under the cursor or says why the
rules refuse it, and ``h`` asks the hint bot what it would do. A game's keys
(:class:`~lodam_p2p.ui.lodam.controller.Controller`,
:class:`~lodam_p2p.ui.lorum.keys.LorumKeys`) say what its panels and its card letters
are, and what the person is told.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Protocol

from lodam_p2p.ui.prompts import GamePrompt


class KeyedModel(Protocol):
    """The part of a screen's model that keys change."""

    cursor: int
    hosted: tuple[str, ...]  #: bot seats played from here at a table with others
    hint: int | None
    status: str

    @property
    def panel(self) -> Any:
        """The game's open panel (its ``NONE``: none)."""

    @property
    def prompt(self) -> GamePrompt[Any, Any, Any] | None:
        """The decision on the screen, if any."""

    @property
    def view(self) -> Any:
        """The seat's latest view (the game's ``PlayerView``), if any."""

    def answered(self) -> None:
        """The decision was taken: no prompt until the next one."""


class GameKeys:
    """Turns key presses into changes of the model and answers to the table."""

    #: The game's value of ``model.panel`` when no panel is open, and for "Leave the
    #: table?".
    no_panel: ClassVar[Any]
    quit_panel: ClassVar[Any]
    #: What a refused choice says when the rules gave no reason.
    refused: ClassVar[str] = "the rules do not allow that here"

    def __init__(self, model: KeyedModel, *, answer: Callable[[Any], None],
                 leave: Callable[[], None], play_again: Callable[[], None] = lambda: None,
                 hint: Callable[[Any], Any] | None = None) -> None:
        self.model = model
        self.answer = answer
        self.leave = leave
        self.play_again = play_again
        self.hint = hint

    def key(self, name: str) -> None:
        """Handle one key."""
        name = name.lower() if len(name) == 1 else name
        if self.model.panel is self.no_panel:
            self.table_key(name)
        else:
            self.panel_key(name)

    def table_key(self, name: str) -> None:
        """A key with no panel open."""

    def panel_key(self, name: str) -> None:
        """A key with a panel open."""

    def interrupt(self) -> None:
        """Ctrl-C: leave at once — or, with bot seats played from here, ask first."""
        if self.model.hosted and self.model.panel is not self.quit_panel:
            self.ask_to_leave()
        else:
            self.leave()

    def ask_to_leave(self) -> None:
        """Open "Leave the table?" (as ``q`` does)."""
        self.key("q")

    def take(self, index: int) -> None:
        """Take item ``index`` of the prompt, or say why the rules refuse it."""
        model, prompt = self.model, self.model.prompt
        assert prompt is not None
        choice = prompt.items[index]
        model.cursor = index
        if choice.action is None:
            model.status = choice.refusal or self.refused
            return
        model.answered()
        self.answer(choice.action)

    def hinted(self) -> Any:
        """What the hint bot would do now, or ``None`` with the status saying why it
        cannot say."""
        model = self.model
        if model.prompt is None or model.view is None:
            model.status = "no decision to hint at"
            return None
        if self.hint is None:
            model.status = "no hint bot installed"
            return None
        return self.hint(model.view)


__all__ = ["GameKeys", "KeyedModel"]
