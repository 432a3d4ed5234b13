"""The middle of the Lorum table: what lies on the felt in each kind of contract.

- trick contracts: the trick in progress, a name over each card, and the line that says
  what has scored so far (hearts taken, Obers out, the scoring trick …);
- ``quartet``: the run as it builds and the card it waits for ("whoever holds ``U♥``
  plays" — nobody but its holder knows who that is);
- ``lorum``: the four rows, each from its starting card (marked) to the card that fits
  next, and the set-aside ``7● 8●`` with three players.

Each ``felt_lines`` function returns up to :data:`FELT_ROWS` lines of fragments; the
screen centres them inside the table's edge.
"""

from __future__ import annotations

from lodam_p2p.games.lorum import Card, Contract, LorumStart, PlayerView, Rank, Suit
from lodam_p2p.ui.canvas import Frags, frag_width
from lodam_p2p.ui.german import (
    RANK_LABELS,
    RANK_NAMES,
    SUIT_NAMES,
    card_frag,
    card_label,
    suit_style,
    suit_symbol,
)
from lodam_p2p.ui.lorum.model import LorumTable

#: Lines inside the table's edge.
FELT_ROWS = 7
_KH = Card(Suit.H, Rank.KING)


def felt_lines(model: LorumTable, view: PlayerView, width: int) -> list[Frags]:
    """The lines on the felt for ``view``'s contract."""
    if view.contract is Contract.LORUM:
        lines = _rows(model, view, width)
    elif view.contract is Contract.QUARTET:
        lines = _quartet(model, view, width)
    else:
        lines = _tricks(model, view, width)
    return lines[:FELT_ROWS]


def turn_line(model: LorumTable, view: PlayerView) -> Frags:
    """Whose turn it is, and to do what."""
    if view.to_act is None and view.awaiting_card is not None:
        card = card_frag(view.awaiting_card, model.glyphs)
        return [("class:prompt", "whoever holds "), card, ("class:prompt", " plays it")] \
            if view.awaiting_card != _KH or view.contract is not Contract.RED_KING else \
            [("class:prompt", "whoever holds "), card, ("class:prompt", " may announce it")]
    if view.to_act is None:
        return [("class:dim", "the deal is over")]
    verb = {"lay": "lay or pass", "announce": "announce"}.get(
        view.awaiting.value if view.awaiting else "", "play")
    if view.to_act == model.me:
        return [("class:seat.acting", f"{model.glyphs.pointer} your turn to {verb}")]
    return [("class:seat.acting", f"{model.glyphs.pointer} {model.short(view.to_act, 12)}"),
            ("class:dim", f" to {verb}")]


# -- tricks ------------------------------------------------------------------------------

def _tricks(model: LorumTable, view: PlayerView, width: int) -> list[Frags]:
    done = len(view.tricks)
    cards = view.current_trick
    title: Frags
    if not cards and view.tricks:
        last = view.tricks[-1]
        cards = last.cards
        gained = f" (+{last.points})" if last.points else ""
        title = [("class:trick.title", f"Trick {done} taken by {model.short(last.winner)}"
                                       f"{gained}")]
    else:
        total = view.hand_sizes[view.seat] + done + any(s == view.seat for s, _ in cards)
        title = [("class:trick.title", f"Trick {done + 1} of {total}")]
    names, faces = _cards_row(model, view, cards, _order(view, cards), width)
    return [title, names, faces, [], _scored(model, view, width), _aside(model, view),
            turn_line(model, view)]


def _order(view: PlayerView, cards: tuple[tuple[int, Card], ...]) -> list[int]:
    first = cards[0][0] if cards else view.leader
    return [(first + k) % view.players for k in range(view.players)]


def _cards_row(model: LorumTable, view: PlayerView, cards: tuple[tuple[int, Card], ...],
               order: list[int], width: int) -> tuple[Frags, Frags]:
    """A name over each card, in play order; seats still to play get ``··``."""
    cell = max(4, min(10, width // max(1, len(order))))
    played = dict(cards)
    best = _winning(cards)
    names: Frags = []
    faces: Frags = []
    for seat in order:
        style = "class:seat.acting" if view.to_act == seat else "class:dim"
        label = model.name(seat)[: cell - 1]
        names.append((style, label.ljust(cell)))
        card = played.get(seat)
        if card is None:
            faces.append(("class:dim", "··".ljust(cell)))
            continue
        face = card_frag(card, model.glyphs, "class:card.winning" if seat == best else "")
        faces += [face, ("", " " * (cell - len(face[1])))]
    return names, faces


def _winning(cards: tuple[tuple[int, Card], ...]) -> int | None:
    if not cards:
        return None
    led = cards[0][1].suit
    return max(((s, c) for s, c in cards if c.suit == led), key=lambda sc: sc[1].rank)[0]


def _scored(model: LorumTable, view: PlayerView, width: int) -> Frags:
    """What has scored so far in this contract."""
    gone = set(view.played)
    glyphs = model.glyphs
    contract = view.contract
    if contract is Contract.REDS:
        taken = sum(1 for c in gone if c.suit is Suit.H and c not in view.set_aside)
        return [("class:dim", f"hearts taken: {taken} of 8")]
    if contract is Contract.OBERS:
        out = [c for c in gone if c.rank is Rank.OBER]
        line: Frags = [("class:dim", f"Obers taken: {len(out)} of 4 ")]
        return line + [card_frag(c, glyphs) for c in sorted(out)]
    if contract is Contract.FIFTH:
        opt = view.options
        return [("class:dim", f"trick {opt.fifth_trick} scores {opt.fifth_points()}; "
                              f"now trick {min(len(view.tricks) + 1, opt.fifth_trick)}")]
    if contract is Contract.FIRST_LAST:
        last = len(view.tricks) + view.hand_sizes[view.seat] + (
            1 if any(s == view.seat for s, _ in view.current_trick) else 0)
        return [("class:dim", f"trick 1 and trick {last} score "
                              f"{view.options.first_last_points} each")]
    if contract is Contract.RED_KING:
        return _red_king(model, view)
    return _tricks_taken(model, view, width)


def _tricks_taken(model: LorumTable, view: PlayerView, width: int) -> Frags:
    counts = [sum(1 for t in view.tricks if t.winner == s) for s in range(view.players)]
    for label, cut in (("tricks taken: ", 6), ("taken: ", 5), ("", 4)):
        text = label + " · ".join(f"{model.short(s, cut)} {n}" for s, n in enumerate(counts))
        if len(text) <= width:
            break
    return [("class:dim", text)]


def _red_king(model: LorumTable, view: PlayerView) -> Frags:
    king = card_frag(_KH, model.glyphs)
    if _KH in view.played:
        return [king, ("class:dim", " is taken")]
    if view.options.red_king_blind:
        return [king, ("class:dim", " still face down somewhere: 5 points")]
    if view.announced:
        return [king, ("class:notice.warning", " announced: 64 for whoever takes it")]
    return [king, ("class:dim", " not yet played")]


def _aside(model: LorumTable, view: PlayerView) -> Frags:
    if not view.set_aside:
        return []
    line: Frags = [("class:dim", "set aside: ")]
    for card in view.set_aside:
        line += [card_frag(card, model.glyphs, "class:lorum.aside"), ("", " ")]
    return line[:-1]


# -- Quartet -----------------------------------------------------------------------------

def _quartet(model: LorumTable, view: PlayerView, width: int) -> list[Frags]:
    run = view.current_trick
    if run:
        title: Frags = [("class:trick.title",
                         f"Run {len(view.tricks) + 1}, led by {model.short(run[0][0])}")]
        shown = run
    elif view.tricks:
        last = view.tricks[-1]
        title = [("class:trick.title", _run_end(model, view, last.winner))]
        shown = last.cards
    else:
        title, shown = [("class:trick.title", "Quartet: runs of four")], ()
    names, faces = _run_row(model, shown, width)
    return [title, names, faces, [], _gone_line(model, view), _aside(model, view),
            turn_line(model, view)]


def _run_end(model: LorumTable, view: PlayerView, last: int) -> str:
    done = f"Run {len(view.tricks)}"
    if view.to_act is None:
        return f"{done} ended the deal"
    if last == model.me:
        return f"{done} ended: you lead again"
    return f"{done} ended: {model.short(last, 12)} leads again"


def _run_row(model: LorumTable, run: tuple[tuple[int, Card], ...], width: int
             ) -> tuple[Frags, Frags]:
    """The run's cards left to right, rising, each with who played it."""
    cell = max(4, min(10, width // 4))
    names: Frags = []
    faces: Frags = []
    for i, (seat, card) in enumerate(run):
        arrow = "→ " if i < len(run) - 1 else ""
        names.append(("class:dim", model.name(seat)[: cell - 1].ljust(cell)))
        face = card_frag(card, model.glyphs)
        faces += [face, ("class:dim", arrow.ljust(cell - len(face[1])))]
    return names, faces


def _gone_line(model: LorumTable, view: PlayerView) -> Frags:
    """Per suit, how far the cards are gone (what can still start a run)."""
    line: Frags = [("class:dim", "played: ")]
    for suit in (Suit.E, Suit.G, Suit.H, Suit.S):
        count = sum(1 for c in view.played if c.suit is suit)
        line += [(suit_style(suit), suit_symbol(suit, model.glyphs)),
                 ("class:dim", f"{count}/8  ")]
    return line


# -- Lorum -------------------------------------------------------------------------------

def _rows(model: LorumTable, view: PlayerView, width: int) -> list[Frags]:
    unter = view.options.lorum_start is LorumStart.UNTER
    if view.start_rank < 0:
        title: Frags = [("class:trick.title", "The eldest lays first: any card sets the "
                                              "starting rank")]
    else:
        rank = Rank(view.start_rank)
        title = [("class:trick.title", f"Starting rank {RANK_LABELS[rank]} "
                                       f"({RANK_NAMES[rank]})")]
        if unter:
            title.append(("class:dim", ": up and down"))
    aside = {c for s, c in view.lays if s is None and c is not None}
    waiting = [c for c in view.set_aside if c not in aside]
    if waiting:
        title.append(("class:dim", " · set aside "))
        title += [card_frag(c, model.glyphs, "class:lorum.aside") for c in waiting[:1]]
        title += [item for c in waiting[1:] for item in (("", " "), card_frag(
            c, model.glyphs, "class:lorum.aside"))]
    lines = [title]
    for suit in (Suit.E, Suit.G, Suit.H, Suit.S):
        row = _row(model, view, suit, aside, named=True)
        lines.append(row if frag_width(row) <= width else _row(model, view, suit, aside,
                                                               named=False))
    lines += [_last_lays(model, view), turn_line(model, view)]
    return lines


def _row(model: LorumTable, view: PlayerView, suit: Suit, aside: set[Card], *,
         named: bool) -> Frags:
    """One suit's row; ``named``: with the suit's name (left out when it is too long)."""
    glyphs = model.glyphs
    name = f"{SUIT_NAMES[suit]:<9}" if named else ""
    label = f"{suit_symbol(suit, glyphs)} {name}"
    line: Frags = [(suit_style(suit), label)]
    cards = list(view.rows.get(suit, ()))
    if view.options.lorum_start is LorumStart.UNTER:
        cards.sort(key=lambda c: c.rank)
    fits = [c for c in view.fits if c.suit is suit]
    if not cards:
        if view.start_rank < 0 or not fits:
            return [*line, ("class:dim", "—")]
        return [*line, ("class:dim", "starts with "), card_frag(fits[0], glyphs)]
    unter = view.options.lorum_start is LorumStart.UNTER
    below = [c for c in fits if unter and c.rank < cards[0].rank]  # grows downward too
    above = [c for c in fits if c not in below]
    for card in below:
        line.append(("class:lorum.next", f"{card_label(card, glyphs)} ← "))
    for card in cards:
        extra = "class:lorum.start" if card.rank == view.start_rank else ""
        if card in aside:
            extra += " class:lorum.aside"
        line += [card_frag(card, glyphs, extra), ("", " ")]
    if above:
        line += [("class:lorum.next", "→ " + " ".join(card_label(c, glyphs) for c in above))]
    return line


def _last_lays(model: LorumTable, view: PlayerView) -> Frags:
    """The last few lays and passes, newest last."""
    words = []
    for seat, card in view.lays[-3:]:
        who = "the table" if seat is None else model.short(seat, 8)
        words.append(f"{who} passed" if card is None else f"{who} "
                     f"{card_label(card, model.glyphs)}")
    if not words and view.set_aside:
        return _aside(model, view)
    return [("class:dim", " · ".join(words))]
