"""What each key does to the model: pure logic, no terminal.

Keys arrive as names (``"left"``, ``"enter"``, ``"escape"`` …) or single characters.
Typing a card is two characters, rank then suit (``q`` ``s``); since ``q`` is also the
key that leaves the table, it opens the "leave the table?" panel, and a suit letter
typed next turns it into the queen instead. ``h`` is the hint when it starts a key
sequence and hearts when it ends one.
"""

from __future__ import annotations

from collections.abc import Callable

from lodam_p2p.games.lodam import Action, Card, PlayerView
from lodam_p2p.ui.keys import GameKeys
from lodam_p2p.ui.lodam.model import Panel, TableModel

RANKS = "23456789tjqka"
SUITS = "shdc"
MOVES = {"left": -1, "right": 1, "up": -100, "down": 100}


class Controller(GameKeys):
    """Turns key presses into changes of the model and answers to the table (the shell's
    :class:`~lodam_p2p.ui.keys.GameKeys`)."""

    no_panel, quit_panel = Panel.NONE, Panel.QUIT
    model: TableModel

    def __init__(
        self,
        model: TableModel,
        *,
        answer: Callable[[Action], None],
        leave: Callable[[], None],
        play_again: Callable[[], None] = lambda: None,
        hint: Callable[[PlayerView], Action] | None = None,
        panel_closed: Callable[[Panel], None] = lambda panel: None,
    ) -> None:
        super().__init__(model, answer=answer, leave=leave, play_again=play_again, hint=hint)
        self.panel_closed = panel_closed

    # -- panels -------------------------------------------------------------------------

    def panel_key(self, name: str) -> None:
        """A key with a panel open: close it, leave, or play again."""
        panel = self.model.panel
        if panel is Panel.QUIT:
            self._quit_key(name)
        elif panel is Panel.MATCH_END:
            if name in ("enter", " "):
                self.play_again()
            elif name == "q":
                self._open(Panel.QUIT)
        elif name == "q":
            self._open(Panel.QUIT)
        elif panel is Panel.DEAL_END:
            if name in ("enter", " ", "escape"):
                self.close()
        elif name in ("enter", " ", "escape", "?", "l", "r"):
            self.close()

    def ask_to_leave(self) -> None:
        """Open "Leave the table?", whatever is being typed."""
        self._open(Panel.QUIT)

    def _quit_key(self, name: str) -> None:
        model = self.model
        if name == "y":
            self.leave()
            return
        typed, model.typed = model.typed, ""
        self.close()
        if typed == "q" and name in SUITS:
            self._typed_card("q", name)

    def _open(self, panel: Panel) -> None:
        prompt = self.model.prompt
        # q may be the queen's rank: only while a card can be chosen (never at match over)
        can_type = prompt is not None and bool(prompt.cards) and panel is Panel.QUIT
        self.model.typed = "q" if can_type and not self.model.typed else ""
        self.model.previous_panel = self.model.panel
        self.model.panel = panel

    def close(self) -> None:
        """Close the open panel (back to what was under the quit question)."""
        model = self.model
        closed = model.panel
        back = model.previous_panel if closed is Panel.QUIT else Panel.NONE
        model.panel, model.previous_panel = back, Panel.NONE
        if back is Panel.NONE:
            self.panel_closed(closed)

    # -- the table ----------------------------------------------------------------------

    def table_key(self, name: str) -> None:
        """A key at the table: the cursor, a card typed, a button, a panel, the hint."""
        model = self.model
        if model.typed:
            self._second_key(name)
        elif name in MOVES:
            self.move(MOVES[name])
        elif name in ("enter", " "):
            self.confirm()
        elif name == "escape":
            model.status = ""
        elif name == "?":
            self._open(Panel.HELP)
        elif name == "l":
            self._open(Panel.LAST_TRICK)
        elif name == "r":
            self._open(Panel.RULES)
        elif name == "q":
            self._open(Panel.QUIT)
        elif name == "h":
            self.show_hint()
        elif name in RANKS or name == "1":
            model.typed, model.status = name, ""
        else:
            self._button_key(name)

    def _second_key(self, name: str) -> None:
        model = self.model
        typed, model.typed = model.typed, ""
        if typed == "1" and name == "0":
            model.typed = "t"
        elif name in SUITS:
            self._typed_card(typed, name)
        elif name != "escape":
            model.status = f"type a rank then a suit, e.g. {typed}s"

    def _typed_card(self, rank: str, suit: str) -> None:
        model, prompt = self.model, self.model.prompt
        card = Card.parse(rank + suit)
        shown = model.glyphs.card(card)
        if prompt is None or not prompt.cards:
            model.status = "it is not your turn to choose a card"
            return
        for i, item in enumerate(prompt.cards):
            if item.card == card:
                model.cursor = i
                model.status = item.refusal if item.action is None else (
                    f"{shown} selected: Enter to confirm")
                return
        model.status = f"you do not hold {shown}"

    def _button_key(self, name: str) -> None:
        prompt = self.model.prompt
        if prompt is None:
            return
        for i, button in enumerate(prompt.buttons):
            if button.key == name:
                self.model.cursor = len(prompt.cards) + i
                self.confirm()
                return

    def move(self, step: int) -> None:
        """Move the cursor ``step`` items (±100: to the other row)."""
        model, prompt = self.model, self.model.prompt
        if prompt is None:
            return
        items = prompt.items
        usable = [i for i, item in enumerate(items) if item.action is not None or item.card is None]
        if not usable:
            return
        if abs(step) == 100:
            on_cards = model.cursor < len(prompt.cards)
            row = [i for i in usable if (i < len(prompt.cards)) != on_cards] or usable
            model.cursor = row[0] if step > 0 or not on_cards else row[-1]
            return
        position = usable.index(model.cursor) if model.cursor in usable else 0
        model.cursor = usable[(position + step) % len(usable)]
        model.status = ""

    def confirm(self) -> None:
        """Take the item under the cursor, or say why the rules refuse it."""
        model, prompt = self.model, self.model.prompt
        if prompt is None:
            model.status = "nothing to decide yet: " + model.waiting_line()
            return
        self.take(model.cursor)

    def show_hint(self) -> None:
        """Select what the heuristic bot would choose (it is not played until Enter)."""
        model, prompt = self.model, self.model.prompt
        action = self.hinted()
        if action is None or prompt is None:
            return
        index = prompt.index_of(action)
        if index is None:
            model.status = f"the hint bot would {action}, which is not offered here"
            return
        model.cursor = model.hint = index
        model.status = f"hint: {prompt.items[index].label} — Enter to take it"
