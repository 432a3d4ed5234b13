"""Panels drawn over the table: help, the last trick, leaving, end of deal and of match."""

from __future__ import annotations

from lodam_p2p.games.lodam import Options, PlayerView
from lodam_p2p.player import DealEnded, MatchEnded
from lodam_p2p.ui.canvas import Canvas, Frags, frag_width
from lodam_p2p.ui.glyphs import name_seats
from lodam_p2p.ui.lodam.model import Panel, TableModel
from lodam_p2p.ui.lodam.seat_view import card_frag
from lodam_p2p.ui.panels import draw_framed, key_rows, leave_question
from lodam_p2p.ui.rules_page import LODAM_WORDS, WORDS_TITLE, page_lines, rules_page

HELP = (
    ("←/→  ↑/↓", "move between cards and buttons"),
    ("Enter, Space", "confirm the choice"),
    ("type a card", "qs, th, 7d … selects it (Enter confirms)"),
    ("p  y  n  d", "the buttons' keys: pass, yes, no, declare"),
    ("h", "hint: select what the heuristic bot would do"),
    ("l", "show the last trick"),
    ("r", "the rules: the game and this deal"),
    ("?", "this help"),
    ("q", "leave the table (asks first)"),
    ("Esc", "close a panel"),
)

#: Columns of the rules page's text.
RULES_WIDTH = 70


def draw_panel(canvas: Canvas, model: TableModel, width: int, bottom: int) -> None:
    """Draw the open panel centred over the table (columns 0 … ``width``)."""
    lines = panel_lines(model)
    if not lines:
        return
    inner = min(width - 4, max(frag_width(line) for line in lines) + 2)
    height = min(len(lines) + 2, max(3, bottom))
    top = max(1, (bottom + 1 - height) // 2 + 1)
    left = max(0, (width - inner - 2) // 2)
    draw_framed(canvas, model.glyphs, lines, top=top, left=left, inner=inner, rows=height,
                room=inner - 1)


def panel_lines(model: TableModel) -> list[Frags]:
    """The lines of the open panel."""
    panel = model.panel
    if panel is Panel.HELP:
        return _help()
    if panel is Panel.LAST_TRICK:
        return _last_trick(model)
    if panel is Panel.RULES:
        return _rules(model)
    if panel is Panel.QUIT:
        return leave_question(model.hosted)
    if panel is Panel.DEAL_END and model.deal_end is not None:
        return _deal_end(model, model.deal_end)
    if panel is Panel.MATCH_END and model.match_end is not None:
        return _match_end(model, model.match_end)
    return []


def _help() -> list[Frags]:
    return [[("class:panel.title", "Keys")], [], *key_rows(HELP),
            [], [("class:panel.title", WORDS_TITLE)], *key_rows(LODAM_WORDS),
            [], [("class:dim", "Esc or ? closes this")]]


def _rules(model: TableModel) -> list[Frags]:
    """The rules page: the game in a paragraph, then what this deal's options ask."""
    options = model.view.options if model.view is not None else Options()
    lines: list[Frags] = [[line] for line in page_lines(rules_page("lodam", options),
                                                         RULES_WIDTH)]
    return [*lines, [], [("class:dim", "Esc or r closes this")]]


def _last_trick(model: TableModel) -> list[Frags]:
    view = model.view
    if view is None or not view.tricks:
        return [[("", "No trick has been taken in this deal yet.")], [],
                [("class:dim", "Esc closes this")]]
    trick = view.tricks[-1]
    taken = "swallowed" if trick.swallowed else "taken"
    title = f"Trick {len(view.tricks)}: led by {model.name(trick.leader)}, {taken} by " \
            f"{model.name(trick.winner)}"
    if not view.options.declare_out:
        title += f" (+{trick.points})"
    lines: list[Frags] = [[("class:panel.title", title)], []]
    for seat, card in trick.cards:
        mark = "  ◀ took it" if seat == trick.winner else ""
        if model.glyphs.ascii and mark:
            mark = "  <- took it"
        lines.append([("", f"{model.name(seat):<16}"), card_frag(card, model.glyphs),
                      ("class:dim", mark)])
    return [*lines, [], [("class:dim", "Esc or l closes this")]]


def _deal_end(model: TableModel, end: DealEnded) -> list[Frags]:
    glyphs, view = model.glyphs, model.view
    total = view.options.lives if view else max(end.lives)
    reason = name_seats(end.reason, model.name)
    lines: list[Frags] = [[("class:panel.title", f"Deal {model.ended_deal} is over")],
                          [("class:prompt", reason[:1].upper() + reason[1:] + ".")], []]
    if end.void:
        lines.append([("class:notice.error", "The deal is void: no counter changes.")])
    lines.append([("class:dim", f"{'':<16}{'points':>6}   counters")])
    for seat, points in enumerate(end.points):
        change = end.counter_change[seat]
        before = end.lives[seat] - change
        after = glyphs.counters(end.lives[seat], total)
        counters = after if not change else f"{glyphs.counters(before, total)} → {after}"
        if glyphs.ascii:
            counters = counters.replace("→", "->")
        note = {-1: "  loses a counter", 1: "  gains a counter"}.get(change, "")
        style = "class:notice.warning" if change < 0 else ""
        lines.append([(style, f"{model.name(seat):<16}{points:>6}   {counters}{note}")])
    audit = name_seats(end.audit, model.name)
    audit_style = "class:dim" if end.audit == "passed" or audit.startswith("not needed") \
        else "class:notice.error"
    lines += [[], [(audit_style, f"Audit: {audit}")], []]
    if model.out and model.match_end is None:
        lines += [[("class:prompt", "You are out of the match: watch the rest, or q to "
                                    "leave.")], []]
    return [*lines, [("class:panel.key", "Enter: continue")]]


def _match_end(model: TableModel, end: MatchEnded) -> list[Frags]:
    winners = " and ".join(model.name(s) for s in end.winners)
    verb = "win" if winners == "you" else "wins" if len(end.winners) == 1 else "win"
    lines: list[Frags] = [
        [("class:panel.title", f"The match is over: {winners} {verb}!")],
        [("class:dim", f"after {end.deals} deal{'s' if end.deals != 1 else ''}")], []]
    if end.reason:
        lines[2:2] = [[("class:notice.error", model.verdict(end) + ".")]]
    view: PlayerView | None = model.view
    total = view.options.lives if view else 3
    for place, seat in enumerate(end.standings, start=1):
        lives = model.deal_end.lives[seat] if model.deal_end else view.lives[seat] if view else 0
        text = f"{place:>2}. {model.name(seat):<16}{model.glyphs.counters(lives, total)}"
        if end.payouts and any(end.payouts):
            text += f"   {end.payouts[seat]:+d} chips"
        style = "class:panel.title" if seat in end.winners else ""
        lines.append([(style, text)])
    return [*lines, [], [("class:panel.key", "Enter: play again    q: leave")]]
