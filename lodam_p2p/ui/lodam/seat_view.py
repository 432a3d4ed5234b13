"""The pieces of the table: a seat's box, the trick in the middle, where seats sit.

Pure functions of a :class:`~lodam_p2p.games.lodam.PlayerView` (and names) to fragments. Points
are never drawn under ``declare_out`` (tricks taken are, since everyone sees them
gathered), and the trump is never marked once its show time under ``trump_memory`` is
over: the caller says whether it may be (``trump_shown``).
"""

from __future__ import annotations

from dataclasses import dataclass

from lodam_p2p.games.lodam import Card, PlayerView, Suit, rank_strength
from lodam_p2p.ui.canvas import Canvas, Frags, clip
from lodam_p2p.ui.glyphs import Glyphs, card_style

#: Lines of a seat's box.
SEAT_LINES = 3


@dataclass(frozen=True, slots=True)
class SeatPlaces:
    """The other seats around the table, from the person's left round to their right.

    Play goes to the left, so the seat after the person's sits at their left hand (the
    screen's left edge, bottom up), the next ones across the top (left to right), the
    last ones down the right edge: clockwise, as at a real table.
    """

    left: tuple[int, ...]
    top: tuple[int, ...]
    right: tuple[int, ...]

    @classmethod
    def around(cls, me: int, players: int) -> SeatPlaces:
        """The places of every seat but ``me``."""
        others = [(me + k) % players for k in range(1, players)]
        side = (len(others) + 1) // 4
        left = tuple(reversed(others[:side]))
        top = tuple(others[side:len(others) - side])
        right = tuple(others[len(others) - side:])
        return cls(left, top, right)


def seat_box(view: PlayerView, seat: int, name: str, glyphs: Glyphs, width: int, *,
             connected: bool = True) -> list[Frags]:
    """The three lines of a seat: name and role, counters and cards, points or tricks."""
    acting = view.to_act == seat
    pointer = glyphs.pointer + " " if acting else "  "
    style = "class:seat.acting" if acting else "class:seat.name"
    first: Frags = [("class:seat.pointer", pointer), (style, name)]
    if seat == view.dealer:
        first.append(("class:seat.role", " · dealer"))
    if not connected:
        first.append(("class:notice.warning", " (silent)"))
    return [clip(first, width), clip(_holdings(view, seat, glyphs), width),
            clip(_score(view, seat, glyphs, width - 2), width)]


def _holdings(view: PlayerView, seat: int, glyphs: Glyphs) -> Frags:
    total = view.options.lives
    counters = ("class:counters", glyphs.counters(min(view.lives[seat], total), total))
    if not view.active[seat]:
        gone = view.lives[seat] == 0 and not view.options.winning
        return [("", "  "), counters,
                ("class:dim", "  out of the match" if gone else "  sits out")]
    cards = view.hand_sizes[seat]
    return [("", "  "), counters, ("", f"  {cards} card{'s' if cards != 1 else ''}")]


def _score(view: PlayerView, seat: int, glyphs: Glyphs, width: int) -> Frags:
    if not view.active[seat]:
        return []
    if view.options.declare_out:
        taken = sum(1 for t in view.tricks if t.winner == seat)
        return [("", "  "), ("class:dim", f"{taken} trick{'s' if taken != 1 else ''} taken")]
    points, out_at = view.points[seat], view.options.out_at
    label = f"{points:>3} "
    bar_width = max(3, min(10, width - len(label) - len(str(out_at)) - 1))
    danger = "class:bar.danger" if points * 3 >= out_at * 2 else "class:bar"
    return [("", "  "), ("class:points", label), (danger, glyphs.bar(points, out_at, bar_width)),
            ("class:dim", f" {out_at}")]


def card_frag(card: Card, glyphs: Glyphs, extra: str = "") -> tuple[str, str]:
    """One card face, coloured by suit."""
    return (f"{card_style(card)} {extra}".strip(), glyphs.card(card))


def trick_winner(cards: tuple[tuple[int, Card], ...], trump: Suit | None,
                 view: PlayerView) -> int | None:
    """The seat whose card is winning ``cards`` so far (trump first, else the led suit)."""
    if not cards:
        return None
    order = view.options.rank_order
    trumps = [(s, c) for s, c in cards if trump is not None and c.suit == trump]
    led = cards[0][1].suit
    pool = trumps or [(s, c) for s, c in cards if c.suit == led]
    return max(pool, key=lambda sc: rank_strength(sc[1], order))[0]


def draw_trick(canvas: Canvas, *, row: int, left: int, width: int, view: PlayerView,
               names: list[str], glyphs: Glyphs, trump_shown: bool) -> None:
    """The trick in the middle: a name over each card, in play order from the leader.

    Between tricks (nothing played yet) the trick just taken stays on show, its taker
    marked, until the next card is played.
    """
    cards = view.current_trick
    finished = not cards and view.tricks
    if finished:
        cards = view.tricks[-1].cards
    order = _play_order(view, cards)
    if not order:
        return
    cell = max(3, min(9, width // len(order)))
    start = left + max(0, (width - cell * len(order)) // 2)
    played = dict(cards)
    if finished:
        best: int | None = view.tricks[-1].winner
    else:
        best = trick_winner(cards, view.trump if trump_shown else None, view)
        if view.trump is not None and not trump_shown:
            best = None  # marking the winner would tell whether a trump is in it
    for i, seat in enumerate(order):
        col = start + i * cell
        label_style = "class:seat.acting" if view.to_act == seat else "class:dim"
        canvas.put(row, col, [(label_style, names[seat][: cell - 1])], cell - 1)
        card = played.get(seat)
        if card is None:
            canvas.put(row + 1, col, [("class:dim", "··")])
            continue
        mark = "class:card.winning" if seat == best else ""
        canvas.put(row + 1, col, [card_frag(card, glyphs, mark)])


def _play_order(view: PlayerView, cards: tuple[tuple[int, Card], ...]) -> list[int]:
    if cards:
        first = cards[0][0]
    elif view.to_act is not None and view.active[view.to_act]:
        first = view.leader
    else:
        return []
    return [s for s in ((first + k) % view.players for k in range(view.players))
            if view.active[s]]
