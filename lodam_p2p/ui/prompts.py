"""A decision put to the person as a row of choices, the same shape in every game.

A game's presenter turns the decision its view awaits into a :class:`Prompt`: a
question, the cards of the hand (each a :class:`Choice` with the action it would take,
or ``None`` when the rules forbid it, so that it is shown dimmed, with the rules' reason
kept for when it is tried) and buttons for what is not a card. The cursor walks one
list: cards first, then buttons. Each game names its own kinds (``Choice``, ``Prompt``
of :mod:`lodam_p2p.ui.lodam.choices`; ``LorumChoice``, ``LorumPrompt``) as subclasses
that fix the game's actions, cards and decisions.

Under the cards both tables draw the same lines, written here once: the question and
the row of buttons with the keys' hint (:func:`draw_prompt`, :func:`button_row`), the
card being typed or the status line (:func:`typing_line`), and the framed log
(:func:`draw_log`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from lodam_p2p.ui.canvas import Canvas, Frags, clip, frag_width

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


#: A game's kind of choice (its subclass of :class:`GameChoice`).
ChoiceT = TypeVar("ChoiceT", bound=GameChoice[Any, Any])


def hand_choices(kind: type[ChoiceT], hand: Sequence[CardT], legal: Collection[object], *,
                 label: Callable[[CardT], str], make: Callable[[CardT], object],
                 refusal: Callable[[CardT], str]) -> tuple[ChoiceT, ...]:
    """Every card of ``hand`` (in the order shown) as a choice of ``kind``, written by
    ``label``: the action ``make`` makes of it where that is in ``legal``, else none,
    with the rules' ``refusal`` kept for when it is tried."""
    out = []
    for card in hand:
        action = make(card)
        allowed = action if action in legal else None
        out.append(kind(label(card), allowed, card,
                        refusal="" if allowed is not None else refusal(card)))
    return tuple(out)


def first_legal(choices: Sequence[GameChoice[Any, Any]]) -> int:
    """Where the cursor starts among ``choices``: the first allowed one (else the first)."""
    return next((i for i, choice in enumerate(choices) if choice.action is not None), 0)


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


def button_row(model: Pointing, prompt: GamePrompt[Any, Any, Any], width: int,
               hint: str) -> Frags:
    """The prompt's buttons, each with its shortcut key, then ``hint`` where it fits in
    ``width``."""
    out: Frags = []
    offset = len(prompt.cards)
    for i, choice in enumerate(prompt.buttons):
        key = f" ({choice.key})" if choice.key else ""
        out += [(item_style(model, offset + i, choice), f"[ {choice.label}{key} ]"),
                ("", " ")]
    if frag_width(out) + len(hint) <= width:
        out.append(("class:dim", hint))
    return clip(out, width)


def draw_prompt(canvas: Canvas, row: int, width: int, model: Pointing, *,
                prompt: GamePrompt[Any, Any, Any], hint: str) -> None:
    """The prompt's question at ``row`` and its :func:`button_row` under it, centred."""
    canvas.center(row, [("class:prompt", prompt.question)], 0, width)
    canvas.center(row + 1, button_row(model, prompt, width, hint), 0, width)


class Typing(Protocol):
    """What a screen's model holds for the line under the prompt."""

    @property
    def typed(self) -> str:
        """The card being typed (``"q"`` of ``"qs"``), or ``""``."""

    @property
    def status(self) -> str:
        """The one-line message under the prompt, or ``""``."""


def typing_line(model: Typing) -> Frags | None:
    """The card being typed, else the status message; ``None`` when there is neither
    (the game says what the table waits for)."""
    if model.typed:
        return [("class:prompt", f"typing a card: {model.typed.upper()}_")]
    if model.status:
        return [("class:status", model.status)]
    return None


def draw_log(canvas: Canvas, row: int, width: int, rule: str,
             lines: Sequence[tuple[str, str]]) -> None:
    """The log below a rule at ``row``: ``lines`` (style, text), one a row, indented by one."""
    canvas.put_text(row, 0, rule * width, "class:rule")
    canvas.put_text(row, 2, " log ", "class:rule")
    for i, (style, text) in enumerate(lines):
        canvas.put(row + 1 + i, 1, [(style, text)], width - 1)
