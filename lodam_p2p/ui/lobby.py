"""The lobby screen: the tables found on the LAN and on a broker, and a new table's form.

Two modes. *Tables*: one line per table (name, seats taken, state, who sits there by
name, where it was found); ↑/↓ choose, Enter joins, ``c`` creates, ``r`` looks again,
``q`` leaves. *Create*: a form — table name, seats, bots for the empty seats, rules
options as ``k=v`` — where ↑/↓ choose a field, typing edits it, Enter on "Create" opens
the table. Rendering is a pure function of :class:`LobbyModel`, like the table screen.

Every table is listed with its game (its announcement says which); a new table plays the
lobby's game (``lodam play --game NAME --lobby``), its seats and options checked by that
game.

The screen only gathers the person's choice (:class:`LobbyChoice`); the caller finds the
tables and acts on the choice (see ``lodam play --lobby``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from lodam_p2p.games import DEFAULT_GAME, Game, get_game
from lodam_p2p.ui.canvas import Canvas, Frags
from lodam_p2p.ui.glyphs import Glyphs, shown_name


@dataclass(frozen=True, slots=True)
class LobbyRow:
    """One table as the lobby lists it."""

    table: str
    broker: str
    seated: int | None = None  #: None: only seen on the LAN, no announcement read
    seats: int | None = None
    state: str = "?"
    host: str = "?"
    found: str = ""
    joinable: bool = True
    game: str | None = None  #: None: only seen on the LAN, no announcement read
    #: the names of those seated, in seat order, as the announcement gives them
    players: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class LobbyChoice:
    """What the person chose: join ``row``, or create a table."""

    join: LobbyRow | None = None
    table: str = ""
    seats: int = 5
    bots: str = "heuristic"
    options: Any = None  #: the new table's options, of its game
    game: str = DEFAULT_GAME


class Mode(enum.Enum):
    """Which part of the lobby is on screen."""

    TABLES = "tables"
    CREATE = "create"


#: The create form's fields, in order (the last is the button).
FIELDS = ("table", "seats", "bots", "options", "create")
LABELS = {"table": "Table name", "seats": "Seats", "bots": "Bots for empty seats",
          "options": "Rules options (k=v …)", "create": ""}
#: The width of the lobby's column of who sits at each table.
PLAYERS_WIDTH = 24
#: What the bots field does, under the form.
BOTS_HINT = "bots: one name fills every empty seat (a list: the last fills); empty: none"
#: A new table's seats, before the person changes them (else the game's most).
DEFAULT_SEATS = {"lodam": 5}
#: Some options of each game, as the form's reminder.
OPTION_EXAMPLES = {
    "lodam": "lives=1 out_at=31 declare_out=true trump_memory=true exchanges=first_trick …",
    "lorum": "contracts=quartet,lorum rounds=2 scoring=beans red_king_blind=true …",
}


@dataclass(slots=True)
class LobbyModel:
    """The lobby's state."""

    rows: list[LobbyRow] = field(default_factory=list)
    mode: Mode = Mode.TABLES
    cursor: int = 0
    looking: bool = False  #: a search is under way
    status: str = ""
    form: dict[str, str] = field(default_factory=lambda: {
        "table": "kitchen", "seats": "5", "bots": "heuristic", "options": ""})
    field_index: int = 0
    chosen: LobbyChoice | None = None
    game: str = DEFAULT_GAME  #: the game of a table created here

    def __post_init__(self) -> None:
        played = self.played()
        self.form["seats"] = str(DEFAULT_SEATS.get(played.name, played.seats.high))

    def played(self) -> Game:
        """The game of a table created here."""
        return get_game(self.game)

    def key(self, name: str) -> None:
        """Handle one key (names as the table screen's controller takes them)."""
        if self.mode is Mode.TABLES:
            self._tables_key(name)
        else:
            self._form_key(name)

    def _tables_key(self, name: str) -> None:
        if name in ("up", "down") and self.rows:
            step = -1 if name == "up" else 1
            self.cursor = (self.cursor + step) % len(self.rows)
        elif name == "enter" and self.rows:
            row = self.rows[self.cursor]
            if row.joinable:
                self.chosen = LobbyChoice(join=row)
            else:
                self.status = f"{row.table} cannot be joined ({row.state})"
        elif name == "c":
            self.mode, self.status = Mode.CREATE, ""

    def _form_key(self, name: str) -> None:
        current = FIELDS[self.field_index]
        if name in ("up", "down", "tab"):
            step = -1 if name == "up" else 1
            self.field_index = (self.field_index + step) % len(FIELDS)
        elif name == "escape":
            self.mode, self.status = Mode.TABLES, ""
        elif name == "enter":
            if current == "create":
                self._create()
            else:
                self.field_index += 1
        elif name == "backspace" and current != "create":
            self.form[current] = self.form[current][:-1]
        elif len(name) == 1 and current != "create":
            self.form[current] += name

    def _create(self) -> None:
        try:
            self.chosen = self.form_choice()
        except ValueError as err:
            self.status = str(err)

    def form_choice(self) -> LobbyChoice:
        """The form as a choice; ``ValueError`` with a sentence if a field is wrong."""
        table = self.form["table"].strip()
        if not table:
            raise ValueError("the table needs a name")
        try:
            seats = int(self.form["seats"])
        except ValueError:
            raise ValueError(f"seats must be a number, not {self.form['seats']!r}") from None
        game = self.played()
        if seats not in game.seats:
            raise ValueError(f"a table of {game.title} seats {game.seats.low} to "
                             f"{game.seats.high}, not {seats}")
        try:
            options = game.parse_options(self.form["options"].split())
        except ValueError as err:  # the rules' errors are ValueErrors
            raise ValueError(f"rules options: {err}") from None
        bots = self.form["bots"].strip()  # empty: no bots, the seats wait for players
        return LobbyChoice(table=table, seats=seats, bots=bots, options=options,
                           game=game.name)


def render_lobby(model: LobbyModel, width: int, height: int, glyphs: Glyphs) -> Canvas:
    """The lobby screen at ``width`` × ``height``."""
    canvas = Canvas(width, height)
    canvas.put_text(0, 0, " " * width, "class:header")
    canvas.put_text(0, 0, f" {_title(model)} ", "class:header")
    if model.mode is Mode.TABLES:
        _tables(canvas, model)
        keys = "↑/↓ choose · Enter join · c create a table · r look again · q leave"
    else:
        _form(canvas, model)
        keys = "↑/↓ field · type to edit · Enter next / create · Esc back to the tables"
    canvas.put_text(height - 2, 1, model.status, "class:status")
    canvas.put_text(height - 1, 1, keys, "class:dim")
    if glyphs.ascii:
        canvas.to_ascii()
    return canvas


def _title(model: LobbyModel) -> str:
    """The header: the lobby lists every game's tables, so it names no game but the one
    a table created here plays."""
    title = model.played().title
    if model.mode is Mode.CREATE:
        return f"Lobby · a new table of {title}"
    return f"Lobby · the tables of every game · a new table plays {title}"


def _tables(canvas: Canvas, model: LobbyModel) -> None:
    canvas.put_text(2, 1, f"{'TABLE':<18}{'GAME':<7}{'SEATS':<7}{'STATE':<10}"
                          f"{'PLAYERS':<{PLAYERS_WIDTH}}FOUND", "class:dim")
    if not model.rows:
        text = "looking for tables…" if model.looking else \
            "no tables found: press c to create one, r to look again"
        canvas.put_text(4, 1, text, "class:dim")
    for i, row in enumerate(model.rows[: max(0, canvas.height - 7)]):
        seats = "?" if row.seats is None else f"{row.seated}/{row.seats}"
        line = (f"{row.table[:17]:<18}{(row.game or '?')[:6]:<7}{seats:<7}{row.state:<10}"
                f"{_players(row):<{PLAYERS_WIDTH}}{row.found}")
        style = "class:choice.cursor" if i == model.cursor else (
            "" if row.joinable else "class:dim")
        canvas.put_text(3 + i, 1, line, style)


def _players(row: LobbyRow) -> str:
    """Who sits at ``row``'s table, by name (the host is known by the table's
    fingerprint), cut to the column."""
    if row.seats is None:
        return "?"
    names = ", ".join(shown_name(name) for name in row.players) or "nobody yet"
    width = PLAYERS_WIDTH - 1
    return names if len(names) <= width else names[: width - 1] + "…"


def _form(canvas: Canvas, model: LobbyModel) -> None:
    canvas.put_text(2, 1, f"A new table of {model.played().title}", "class:panel.title")
    for i, name in enumerate(FIELDS):
        row = 4 + 2 * i
        on = i == model.field_index
        if name == "create":
            canvas.put_text(row, 3, "[ Create the table ]",
                            "class:choice.cursor" if on else "class:choice.legal")
            continue
        value: Frags = [("class:choice.cursor" if on else "class:prompt",
                         model.form[name] + ("_" if on else ""))]
        label = LABELS[name]
        if name == "seats":
            label += f" ({model.played().seats.low}-{model.played().seats.high})"
        canvas.put_text(row, 3, f"{label:<24}", "class:seat.name")
        canvas.put(row, 27, value)
    canvas.put_text(4 + 2 * len(FIELDS), 3,
                    f"options: {OPTION_EXAMPLES.get(model.game, '…')}", "class:dim")
    canvas.put_text(5 + 2 * len(FIELDS), 3, BOTS_HINT, "class:dim")
