"""The table screen, drawn from the model: a pure function of (model, size, time).

Layout, top to bottom: a header; the other seats across the top and down both sides
(:class:`~lodam_p2p.ui.lodam.seat_view.SeatPlaces`); the trick in the middle with the trump
and the offer on the table; the person's own line, hand, question, answer buttons and a
status line; the log of the deal fills what is left (or a column on the right when the
terminal is wide). Panels (help, last trick, end of deal …) are drawn over the middle.
"""

from __future__ import annotations

from lodam_p2p.games.lodam import PlayerView
from lodam_p2p.ui.canvas import Canvas, Frags
from lodam_p2p.ui.glyphs import Glyphs, sort_hand
from lodam_p2p.ui.lodam.choices import Prompt
from lodam_p2p.ui.lodam.model import Panel, TableModel
from lodam_p2p.ui.lodam.panels import draw_panel
from lodam_p2p.ui.lodam.seat_view import SEAT_LINES, SeatPlaces, card_frag, draw_trick, seat_box
from lodam_p2p.ui.prompts import draw_log, draw_prompt, item_style, typing_line
from lodam_p2p.ui.waiting import seat_list, wrap

#: Width at which the log moves to a column of its own.
WIDE = 110
#: Lines of the middle of the table, its edge included.
FELT_LINES = 7
#: Lines of the person's part: own line, hand, question, buttons, status.
OWN_LINES = 5


def render(model: TableModel, width: int, height: int, now: float) -> Canvas:
    """The whole screen for a terminal of ``width`` × ``height``."""
    canvas = _draw(model, width, height, now)
    if model.glyphs.ascii:
        canvas.to_ascii()
    return canvas


def _draw(model: TableModel, width: int, height: int, now: float) -> Canvas:
    canvas = Canvas(width, height)
    view = model.view
    table_w = width - _log_width(width) - 1 if width >= WIDE else width
    _header(canvas, model, table_w)
    if view is None:
        lines = waiting_room(model, table_w - 4)
        top = max(2, (height - len(lines)) // 2)
        for i, line in enumerate(lines):
            canvas.center(top + i, line, 0, table_w)
        if model.panel is not Panel.NONE:
            draw_panel(canvas, model, table_w, height - 1)
        return canvas
    bottom = _table(canvas, model, view, table_w, now)
    if width >= WIDE:
        _log_column(canvas, model, table_w + 1, width - table_w - 1)
    else:
        _log(canvas, model, bottom + 1, height - bottom - 1, width)
    if model.panel is not Panel.NONE:  # the rules page and the keys may cover the log too
        tall = model.panel in (Panel.RULES, Panel.HELP)
        draw_panel(canvas, model, table_w, height - 1 if tall else bottom)
    return canvas


def waiting_room(model: TableModel, width: int = 80) -> list[Frags]:
    """Before the first deal: what the table is doing, and its seats — who has taken
    each, who is a bot, how many are still missing."""
    return seat_list(model.waiting_line(), model.seats, wanted=model.wanted, me=model.me,
                     notice=model.notice, width=width)


def _log_width(width: int) -> int:
    return min(56, width // 3)


def _header(canvas: Canvas, model: TableModel, width: int) -> None:
    view = model.view
    parts = ["Losing Lodam", f"table {model.table}"]
    if model.deal_number:
        parts.append(f"deal {model.deal_number}")
    if view is not None:
        parts.append(_rules_line(view))
    title = " " + " · ".join(parts) + " "
    canvas.put_text(0, 0, " " * width, "class:header")
    canvas.put_text(0, 0, title, "class:header", width)
    keys = " ? help  r rules  l last trick  q leave "
    if len(title) + len(keys) > width:
        keys = " ? help  r rules "
    if len(title) + len(keys) > width:
        keys = " ? help "
    if len(title) + len(keys) <= width:
        canvas.put_text(0, width - len(keys), keys, "class:header.keys")


def _rules_line(view: PlayerView) -> str:
    o = view.options
    words = [f"out at {o.out_at}", f"{o.lives} counters"]
    if o.declare_out:
        words.append("declare out")
    if o.trump_memory:
        words.append("trump memory")
    if o.winning:
        words.append("winning")
    return ", ".join(words)


def _table(canvas: Canvas, model: TableModel, view: PlayerView, width: int, now: float) -> int:
    """Seats, trick and the person's part; returns the last row used."""
    places = SeatPlaces.around(model.me, view.players)
    side_w = 18 if width >= 90 else 16
    _top_row(canvas, model, view, places.top, width)
    side_rows = max(len(places.left), len(places.right))
    mid_top, mid_h = 5, max(FELT_LINES, side_rows * (SEAT_LINES + 1) - 1)
    for col, seats in ((0, places.left), (width - side_w, places.right)):
        first = mid_top + (mid_h - (len(seats) * (SEAT_LINES + 1) - 1)) // 2
        for i, seat in enumerate(seats):
            _seat(canvas, model, view, seat, row=first + i * (SEAT_LINES + 1), col=col,
                  width=side_w)
    mid_left = side_w + 1 if side_rows else 1
    _middle(canvas, model, view, top=mid_top, height=mid_h, left=mid_left,
            width=width - 2 * mid_left, now=now)
    own = mid_top + mid_h
    _own(canvas, model, view, own, width)
    return own + OWN_LINES - 1


def _top_row(canvas: Canvas, model: TableModel, view: PlayerView, seats: tuple[int, ...],
             width: int) -> None:
    if not seats:
        return
    cell = width // len(seats)
    box = min(cell - 1, 24)
    for i, seat in enumerate(seats):
        _seat(canvas, model, view, seat, row=1, col=i * cell + max(0, (cell - box) // 2),
              width=box)


def _seat(canvas: Canvas, model: TableModel, view: PlayerView, seat: int, *, row: int,
          col: int, width: int) -> None:
    connected = seat >= len(model.seats) or model.seats[seat].connected
    for i, line in enumerate(seat_box(view, seat, model.names()[seat], model.glyphs, width,
                                      connected=connected)):
        canvas.put(row + i, col, line, width)


def _middle(canvas: Canvas, model: TableModel, view: PlayerView, *, top: int, height: int,
            left: int, width: int, now: float) -> None:
    _felt(canvas, model, top=top, left=left, width=width, height=height)
    shown = model.trump_visible(now)
    row, left, width = top + 1 + (height - FELT_LINES) // 2, left + 1, width - 2
    canvas.center(row, _trick_title(model, view), left, width)
    draw_trick(canvas, row=row + 1, left=left, width=width, view=view,
               names=_short_names(model), glyphs=model.glyphs, trump_shown=shown)
    canvas.center(row + 3, _trump_line(view, model.glyphs, shown), left, width)
    offer = view.pending_offer
    if offer is not None:
        text = f"{model.name(offer.offerer)} offers a {offer.kind.value} face down"
        canvas.center(row + 4, [("class:offer", text[:1].upper() + text[1:])], left, width)
    else:
        canvas.center(row + 4, [("class:dim", f"talon {view.talon_size}")], left, width)


def _felt(canvas: Canvas, model: TableModel, *, top: int, left: int, width: int,
          height: int) -> None:
    """The table's edge around the middle."""
    model.glyphs.draw_box(canvas, top=top, left=left, width=width, height=height,
                          style="class:felt")


def _short_names(model: TableModel) -> list[str]:
    names = model.names()
    names[model.me] = "you"
    return names


def _trick_title(model: TableModel, view: PlayerView) -> Frags:
    done = len(view.tricks)
    if not view.current_trick and view.tricks:
        last = view.tricks[-1]
        verb = "swallowed" if last.swallowed else "taken"
        text = f"Trick {done} {verb} by {model.name(last.winner)}"
        if not view.options.declare_out:
            text += f" (+{last.points})"
        return [("class:trick.title", text)]
    played = {seat for seat, _ in view.current_trick}
    total = max((view.hand_sizes[s] + done + (s in played)
                 for s in range(view.players) if view.active[s]), default=done)
    return [("class:trick.title", f"Trick {done + 1} of {total}")]


def _trump_line(view: PlayerView, glyphs: Glyphs, shown: bool) -> Frags:
    card = view.trump_card
    if card is None:
        return [("class:dim", "no trump yet")]
    if not shown:
        return [("class:dim", "trump: ? (remember it)")]
    line: Frags = [("class:trump", "trump "), card_frag(card, glyphs)]
    if view.options.trump_memory:
        line.append(("class:trump", " — remember it!"))
    return line


def _own(canvas: Canvas, model: TableModel, view: PlayerView, row: int, width: int) -> None:
    me = seat_box(view, model.me, "You", model.glyphs, width)
    line = me[0] + [("", "  ")] + me[1][1:] + [("", "  ")] + me[2][1:]
    canvas.center(row, line, 0, width)
    canvas.center(row + 1, _hand(model, view), 0, width)
    prompt = model.prompt
    if prompt is not None:
        draw_prompt(canvas, row + 2, width, model, prompt=prompt, hint=_hint(prompt))
    elif model.out and model.match_end is None:
        canvas.center(row + 2, [("class:prompt", "You are out of the match: watching the "
                                                  "others play it out.")], 0, width)
        canvas.center(row + 3, [("class:dim", "Stay as long as you like · q leaves the "
                                               "table")], 0, width)
    canvas.center(row + 4, _status(model), 0, width)


def _hand(model: TableModel, view: PlayerView) -> Frags:
    prompt = model.prompt
    if prompt is not None and prompt.cards:
        return _card_choices(model, prompt)
    cards = sort_hand(view.hand, view.options.rank_order)
    if not cards:
        return [("class:dim", "(no cards)")]
    out: Frags = []
    for i, card in enumerate(cards):
        if i and card.suit != cards[i - 1].suit:
            out.append(("", " "))
        out += [card_frag(card, model.glyphs), ("", " ")]
    return out[:-1]


def _card_choices(model: TableModel, prompt: Prompt) -> Frags:
    out: Frags = []
    for i, choice in enumerate(prompt.cards):
        card = choice.card
        assert card is not None
        if i and card.suit != prompt.cards[i - 1].card.suit:  # type: ignore[union-attr]
            out.append(("", " "))
        out += [card_frag(card, model.glyphs, item_style(model, i, choice)), ("", " ")]
    return out[:-1]


def _hint(prompt: Prompt) -> str:
    return "  ←/→ choose · Enter confirm" if prompt.cards else "  ←/→ · Enter"


def _status(model: TableModel) -> Frags:
    typing = typing_line(model)
    if typing is not None:
        return typing
    notice = model.notice
    if notice is not None:
        return [(f"class:notice.{notice.level.value}", notice.text)]
    return [("class:dim", model.waiting_line())]


def _log(canvas: Canvas, model: TableModel, row: int, height: int, width: int) -> None:
    if height < 2:
        return
    draw_log(canvas, row, width, model.glyphs.rule, _wrapped_tail(model, width - 1, height - 1))


def _log_column(canvas: Canvas, model: TableModel, col: int, width: int) -> None:
    for r in range(1, canvas.height):
        canvas.put_text(r, col - 1, "|" if model.glyphs.ascii else "│", "class:rule")
    canvas.put_text(1, col + 1, "log", "class:rule")
    for i, (style, text) in enumerate(_wrapped_tail(model, width - 1, canvas.height - 2)):
        canvas.put(2 + i, col + 1, [(style, text)], width - 1)


def _wrapped_tail(model: TableModel, width: int, lines: int) -> list[tuple[str, str]]:
    """The last ``lines`` lines of the log, long entries wrapped at ``width``."""
    out: list[tuple[str, str]] = []
    for style, text in reversed(model.log):
        pieces = wrap(text, max(10, width))
        out[:0] = [(style, piece) for piece in pieces]
        if len(out) >= lines:
            break
    return out[-lines:] if lines > 0 else []
