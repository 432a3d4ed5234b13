"""What each key does to the Lorum screen's model: pure logic, no terminal.

Keys arrive as names (``"left"``, ``"enter"``, ``"escape"`` …) or single characters, as
the Lodam :class:`~lodam_p2p.ui.lodam.controller.Controller` takes them. Typing a card is its
rank then its suit letter (``o`` ``h``; the ten is ``t`` or ``10``). The German pack has
no Queen, so ``q`` only ever leaves; ``h`` and ``s`` are the hint and the score sheet
unless a rank was just typed (then they are Herz and Schellen); ``a`` is the Ace while
cards are on offer, and "announce" when the only choices are the Red King's buttons.
"""

from __future__ import annotations

from collections.abc import Callable

from lodam_p2p.games.lorum import Action, PlayerView
from lodam_p2p.ui.keys import GameKeys
from lodam_p2p.ui.lorum.choices import typed_choice
from lodam_p2p.ui.lorum.model import LorumPanel, LorumTable

RANKS = "789tuoka"
SUITS = "eghs"
#: Panels opened (and closed again) by a key on the table.
PANEL_KEYS = {"?": LorumPanel.HELP, "r": LorumPanel.RULES, "s": LorumPanel.SHEET}


class LorumKeys(GameKeys):
    """Turns key presses into changes of a :class:`LorumTable` and answers to the table
    (the shell's :class:`~lodam_p2p.ui.keys.GameKeys`)."""

    no_panel, quit_panel = LorumPanel.NONE, LorumPanel.QUIT
    refused = "not now"
    model: LorumTable

    def __init__(self, model: LorumTable, *, answer: Callable[[Action], None],
                 leave: Callable[[], None], play_again: Callable[[], None] = lambda: None,
                 hint: Callable[[PlayerView], Action] | None = None) -> None:
        super().__init__(model, answer=answer, leave=leave, play_again=play_again, hint=hint)
        self._under_quit = LorumPanel.NONE
        self._under_panel = LorumPanel.NONE

    # -- panels -------------------------------------------------------------------------

    def panel_key(self, name: str) -> None:
        """A key with a panel open: leave, play again, scroll, or close it."""
        model = self.model
        panel = model.panel
        if panel is LorumPanel.QUIT:
            if name == "y":
                self.leave()
            else:
                model.panel = self._under_quit
        elif name == "q":
            self._under_quit, model.panel = panel, LorumPanel.QUIT
        elif panel is LorumPanel.MATCH_END and name in ("enter", " "):
            self.play_again()
        elif panel is LorumPanel.RULES and name in ("up", "down"):
            model.rules_scroll = max(0, model.rules_scroll + (1 if name == "down" else -1))
        elif name in PANEL_KEYS:
            if panel in (LorumPanel.DEAL_END, LorumPanel.MATCH_END):
                self._under_panel = panel  # closing what opens here goes back to it
            model.toggle(PANEL_KEYS[name])
            if model.panel is LorumPanel.NONE:
                self._back_under()
        elif name in ("enter", " ", "escape") and panel is not LorumPanel.MATCH_END:
            model.panel = LorumPanel.NONE
            if panel is not LorumPanel.DEAL_END:
                self._back_under()

    def _back_under(self) -> None:
        """A panel opened over the end of a deal closes back onto it."""
        if self.model.between_deals:  # (not when the next deal has begun meanwhile)
            self.model.panel = self._under_panel
        self._under_panel = LorumPanel.NONE

    # -- the table ----------------------------------------------------------------------

    def table_key(self, name: str) -> None:
        """A key at the table: the cursor, a card typed, a button, a panel, the hint."""
        model = self.model
        prompt = model.prompt
        if model.typed and prompt is not None:
            self._typing(name)
        elif name in ("left", "right") and prompt is not None and prompt.items:
            model.cursor = (model.cursor + (1 if name == "right" else -1)) % len(prompt.items)
            model.status = ""
        elif name in ("enter", " ") and prompt is not None and prompt.items:
            self.take(model.cursor)
        elif prompt is not None and prompt.cards and (name in RANKS or name == "1"):
            model.typed, model.status = name, ""
        elif prompt is not None and any(b.key == name for b in prompt.buttons):
            self.take(next(i for i, item in enumerate(prompt.items) if item.key == name))
        elif name == "h":
            self._hint()
        elif name == "q":
            self._under_quit, model.panel = LorumPanel.NONE, LorumPanel.QUIT
        elif name in PANEL_KEYS:
            model.toggle(PANEL_KEYS[name])

    def _typing(self, name: str) -> None:
        model = self.model
        prompt = model.prompt
        assert prompt is not None
        if model.typed == "1" and name == "0":
            model.typed = "10"
            return
        typed, model.typed = model.typed, ""
        if name == "escape":
            return
        index = typed_choice(prompt, typed + name) if name in SUITS else None
        if index is None:
            model.status = f"you hold no {(typed + name).upper()} (rank then suit: oh, 10e)"
            return
        model.cursor, model.status = index, ""

    def _hint(self) -> None:
        model = self.model
        action = self.hinted()
        if action is None or model.prompt is None:
            return
        index = model.prompt.index_of(action)
        if index is not None:
            model.hint = model.cursor = index
            model.status = "hint: Enter plays it"
