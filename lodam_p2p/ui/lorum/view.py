"""The Lorum table screen, drawn from a :class:`~lodam_p2p.ui.lorum.model.LorumTable`:
a pure function of (model, size, time).

Layout for 80 × 24, top to bottom: the header (deal *k* of *n*, dealer, keys); the
contract line ("Rote — reds: every heart 1 point"); the other seats across the top and
down the sides, each with cards left, points this deal and in all, a pass or going out;
the felt (:mod:`~lodam_p2p.ui.lorum.middle`); the person's line, hand (legal cards
bright, the rest dimmed; face down when blind), question, buttons and status; the log.
Panels (keys, score sheet, rules, end of deal and of match) are drawn over the table.
"""

from __future__ import annotations

from lodam_p2p.games.lorum import Card, PlayerView, Scoring
from lodam_p2p.ui.canvas import Canvas, Frags, clip, frag_width
from lodam_p2p.ui.german import back, card_frag, sort_hand, to_ascii
from lodam_p2p.ui.lorum.choices import LorumPrompt
from lodam_p2p.ui.lorum.middle import FELT_ROWS, felt_lines, turn_line
from lodam_p2p.ui.lorum.model import LorumPanel, LorumTable
from lodam_p2p.ui.lorum.panels import draw_lorum_panel
from lodam_p2p.ui.prompts import draw_log, draw_prompt, item_style, typing_line
from lodam_p2p.ui.rules_page import contract_title
from lodam_p2p.ui.waiting import seat_list

#: Lines of a seat's box.
SEAT_LINES = 3
#: Width of a seat at the side of the table.
SIDE = 18
#: Lines of the person's part: own line, hand, question, buttons, status.
OWN_LINES = 5
#: What the keys do, beside the buttons where it fits.
HINT = "  ←/→ choose · Enter confirm · h hint"


def render_lorum(model: LorumTable, width: int, height: int, now: float) -> Canvas:
    """The whole Lorum screen for a terminal of ``width`` × ``height`` (``now`` is taken
    for symmetry with the Lodam screen; nothing here depends on time yet)."""
    canvas = Canvas(width, height)
    _header(canvas, model, width)
    view = model.view
    if view is None:
        lines = seat_list(model.status or "waiting for the table…", model.seats,
                          wanted=model.wanted, me=model.me, notice=model.notice,
                          width=width - 4)
        top = max(2, (height - len(lines)) // 2)
        for i, line in enumerate(lines):
            canvas.center(top + i, line)
    else:
        bottom = _table(canvas, model, view, width)
        _log(canvas, model, bottom + 1, height - bottom - 1, width)
    if model.panel is not LorumPanel.NONE:
        draw_lorum_panel(canvas, model, width, height)
    if model.glyphs.ascii:
        to_ascii(canvas)
    return canvas


def _header(canvas: Canvas, model: LorumTable, width: int) -> None:
    view = model.view
    parts = ["Lorum", f"table {model.table}"]
    if model.deal_number:
        total = f" of {model.deals_total}" if model.deals_total else ""
        parts.append(f"deal {model.deal_number}{total}")
    if view is not None:
        parts.append(f"dealer {model.name(view.dealer)}")
    title = " " + " · ".join(parts) + " "
    canvas.put_text(0, 0, " " * width, "class:header")
    canvas.put_text(0, 0, title, "class:header", width)
    for keys in (" r rules  s sheet  ? keys ", " r rules ", ""):
        if len(title) + len(keys) <= width:
            canvas.put_text(0, width - len(keys), keys, "class:header.keys")
            break
    if view is not None:
        line = contract_title(view.contract, view.options, view.players)
        canvas.center(1, [("class:contract", line)], 0, width)


def _table(canvas: Canvas, model: LorumTable, view: PlayerView, width: int) -> int:
    """Seats, felt and the person's part; returns the last row used."""
    left_seat, top, right_seat = places(model.me, view.players)
    top_row = 2
    _top_seats(canvas, model, view, top, row=top_row, width=width)
    mid_top = top_row + SEAT_LINES
    mid_h = FELT_ROWS + 2
    sides = left_seat is not None
    first = mid_top + (mid_h - SEAT_LINES) // 2
    for col, seat in ((0, left_seat), (width - SIDE, right_seat)):
        if seat is not None:
            _seat(canvas, model, view, seat, row=first, col=col, width=SIDE)
    left = SIDE + 1 if sides else 1
    _felt(canvas, model, view, top=mid_top, height=mid_h, left=left, width=width - 2 * left)
    own = mid_top + mid_h
    _own(canvas, model, view, own, width)
    return own + OWN_LINES - 1


def places(me: int, players: int) -> tuple[int | None, tuple[int, ...], int | None]:
    """Where the others sit, as at a real table where play goes to the left: with four,
    the next seat at the person's left hand, the one after across, the last at the
    right; with three, both across the top (the next one on the left)."""
    others = [(me + k) % players for k in range(1, players)]
    if len(others) == 3:
        return others[0], (others[1],), others[2]
    return None, tuple(others), None


def _top_seats(canvas: Canvas, model: LorumTable, view: PlayerView, seats: tuple[int, ...],
               *, row: int, width: int) -> None:
    if not seats:
        return
    cell = width // len(seats)
    box = min(cell - 1, 32)
    for i, seat in enumerate(seats):
        _seat(canvas, model, view, seat, row=row, col=i * cell + max(0, (cell - box) // 2),
              width=box)


def _seat(canvas: Canvas, model: LorumTable, view: PlayerView, seat: int, *, row: int,
          col: int, width: int) -> None:
    for i, line in enumerate(seat_lines(model, view, seat, width)):
        canvas.put(row + i, col, line, width)


def seat_lines(model: LorumTable, view: PlayerView, seat: int, width: int) -> list[Frags]:
    """A seat's three lines: name and role; cards left, a pass or out; points."""
    acting = view.to_act == seat
    first: Frags = [("class:seat.pointer", model.glyphs.pointer + " " if acting else "  "),
                    ("class:seat.acting" if acting else "class:seat.name",
                     model.seat_name(seat))]
    if seat == view.dealer:
        first.append(("class:seat.role", " · dealer"))
    if not model.is_connected(seat):
        first.append(("class:notice.warning", " (silent)"))
    return [clip(first, width), clip([("", "  "), *_holding(view, seat)], width),
            clip([("", "  "), *_points(model, view, seat)], width)]


def _holding(view: PlayerView, seat: int) -> Frags:
    if seat in view.out:
        place = view.out.index(seat) + 1
        return [("class:notice.warning", f"out {_ordinal(place)}")]
    cards = view.hand_sizes[seat]
    line: Frags = [("", f"{cards} card{'s' if cards != 1 else ''}")]
    if passed(view, seat):
        line.append(("class:notice.warning", " · passed"))
    return line


def passed(view: PlayerView, seat: int) -> bool:
    """Whether ``seat``'s last turn in the Lorum rows was a pass."""
    for who, card in reversed(view.lays):
        if who == seat:
            return card is None
    return False


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")


def _points(model: LorumTable, view: PlayerView, seat: int) -> Frags:
    now = view.points[seat]
    sheet = model.sheet
    line: Frags = [("class:points", f"+{now}")]
    if sheet is None:
        return line
    if sheet.scoring is Scoring.BEANS and sheet.beans:
        return [*line, ("class:dim", f" · {sheet.beans[seat]} beans")]
    total = sheet.totals[seat] + (0 if model.final else now)
    return [*line, ("class:dim", f" · total {total}")]


def _felt(canvas: Canvas, model: LorumTable, view: PlayerView, *, top: int, height: int,
          left: int, width: int) -> None:
    model.glyphs.draw_box(canvas, top=top, left=left, width=width, height=height,
                          style="class:felt")
    inner = width - 4
    lines = felt_lines(model, view, inner)
    block = max((frag_width(line) for line in lines), default=0)
    start = left + 2 + max(0, (inner - block) // 2)
    for i, line in enumerate(lines):  # one block, centred: the rows stay aligned
        canvas.put(top + 1 + i, start, line, left + 2 + inner - start)


def _own(canvas: Canvas, model: LorumTable, view: PlayerView, row: int, width: int) -> None:
    sep = ("class:dim", " · ")
    line = [*seat_lines(model, view, model.me, width)[0], sep, *_holding(view, model.me), sep,
            *_points(model, view, model.me)]
    canvas.center(row, line, 0, width)
    canvas.center(row + 1, _hand(model, view), 0, width)
    prompt = model.prompt
    if prompt is not None:
        draw_prompt(canvas, row + 2, width, model, prompt=prompt, hint=HINT)
    elif view.options.red_king_blind and view.contract.value == "red_king":
        canvas.center(row + 2, [("class:dim", "Blind: your next card is played for you, "
                                              "face down to you too.")], 0, width)
    canvas.center(row + 4, _status(model, view), 0, width)


def _hand(model: LorumTable, view: PlayerView) -> Frags:
    prompt = model.prompt
    if prompt is not None and prompt.cards:
        return _card_choices(model, prompt)
    if not view.hand:
        count = view.hand_sizes[view.seat]
        if count and view.options.red_king_blind:
            return _spaced([("class:card.back", back(model.glyphs))] * count)
        return [("class:dim", "(no cards)")]
    cards = sort_hand(view.hand)
    return _spaced([card_frag(c, model.glyphs) for c in cards], cards)


def _spaced(faces: Frags, cards: list[Card] | None = None) -> Frags:
    out: Frags = []
    for i, face in enumerate(faces):
        if i and cards is not None and cards[i].suit != cards[i - 1].suit:
            out.append(("", " "))
        out += [face, ("", " ")]
    return out[:-1]


def _card_choices(model: LorumTable, prompt: LorumPrompt) -> Frags:
    faces: Frags = []
    cards = []
    for i, choice in enumerate(prompt.cards):
        assert choice.card is not None
        cards.append(choice.card)
        if choice.action is None:
            faces.append((item_style(model, i, choice), choice.label))
        else:
            faces.append(card_frag(choice.card, model.glyphs, item_style(model, i, choice)))
    return _spaced(faces, cards)


def _status(model: LorumTable, view: PlayerView) -> Frags:
    return typing_line(model) or turn_line(model, view)


def _log(canvas: Canvas, model: LorumTable, row: int, height: int, width: int) -> None:
    if height < 2:
        return
    draw_log(canvas, row, width, model.glyphs.rule, model.log[-(height - 1):])
