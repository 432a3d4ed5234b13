"""A decision put to the person as a row of choices, the same shape in every game.

A game's presenter turns the decision its view awaits into a :class:`Prompt`: a
question, the cards of the hand (each a :class:`Choice` with the action it would take,
or ``None`` when the rules forbid it, so that it is shown dimmed, with the rules' reason
kept for when it is tried) and buttons for what is not a card. The cursor walks one
list: cards first, then buttons. Each game names its own kinds (``Choice``, ``Prompt``
of :mod:`lodam_p2p.ui.lodam.choices`; ``LorumChoice``, ``LorumPrompt``) as subclasses
that fix the game's actions, cards and decisions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

ActionT = TypeVar("ActionT")
CardT = TypeVar("CardT")
DecisionT = TypeVar("DecisionT")

#: A seat's name by its number.
Namer = Callable[[int], str]


@dataclass(frozen=True, slots=True)
class GameChoice(Generic[ActionT, CardT]):
    """One thing the person can point at."""

    label: str
    action: ActionT | None  #: None: shown, but the rules forbid it here
    card: CardT | None = None
    key: str = ""  #: a shortcut key for buttons
    refusal: str = ""  #: why it cannot be chosen, said when it is tried


@dataclass(frozen=True, slots=True)
class GamePrompt(Generic[DecisionT, ActionT, CardT]):
    """A decision put to the person."""

    decision: DecisionT
    question: str
    cards: tuple[GameChoice[ActionT, CardT], ...]  #: the hand in display order (or none)
    buttons: tuple[GameChoice[ActionT, CardT], ...]
    default: int  #: where the cursor starts, an index into :attr:`items`

    @property
    def items(self) -> tuple[GameChoice[ActionT, CardT], ...]:
        """Cards then buttons: what the cursor walks."""
        return self.cards + self.buttons

    def index_of(self, action: ActionT) -> int | None:
        """The index of the item that takes ``action``."""
        for i, item in enumerate(self.items):
            if item.action == action:
                return i
        return None


class Pointing(Protocol):
    """Where a screen's model points in a prompt: the cursor, and the hint's item."""

    @property
    def cursor(self) -> int:
        """The item under the cursor."""

    @property
    def hint(self) -> int | None:
        """The item the hint suggests, if one was asked."""


def item_style(model: Pointing, index: int, choice: GameChoice[Any, Any]) -> str:
    """The style classes of item ``index`` of a prompt: allowed or dimmed, hinted, under
    the cursor."""
    styles = ["class:choice.legal" if choice.action is not None else "class:choice.dim"]
    if index == model.hint:
        styles.append("class:choice.hint")
    if index == model.cursor:
        styles.append("class:choice.cursor")
    return " ".join(styles)
