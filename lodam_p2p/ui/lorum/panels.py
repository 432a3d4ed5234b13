"""Panels drawn over the Lorum table: keys, the score sheet, the rules page, the end of a
deal and of the match (with "play again")."""

from __future__ import annotations

from lodam_p2p.games.lorum import Scoring
from lodam_p2p.ui.canvas import Canvas, Frags, frag_width
from lodam_p2p.ui.german import CONTRACT_NAMES
from lodam_p2p.ui.glyphs import name_seats
from lodam_p2p.ui.lorum.model import DealSummary, LorumPanel, LorumTable, ScoreSheet
from lodam_p2p.ui.panels import draw_framed, key_rows, leave_question
from lodam_p2p.ui.rules_page import page_lines, rules_page

HELP = (
    ("←/→", "move between cards and buttons"),
    ("Enter, Space", "confirm the choice"),
    ("type a card", "oh, 10e, ag, us … selects it (Enter confirms)"),
    ("", "run cards, passes and blind plays go by themselves"),
    ("a  n", "announce the Red King, or keep quiet"),
    ("h", "hint: select what a bot would play here"),
    ("s", "the score sheet"),
    ("r", "the rules: the game and this contract"),
    ("?", "these keys"),
    ("q", "leave the table (asks first)"),
    ("Esc", "close a panel"),
)
#: Columns of a seat in the score sheet.
COLUMN = 8
#: Columns of the sheet's row labels: the mark, the longest contract name ("Erster und
#: Letzter") and the deals done ("4/4"), so that every row's cells line up.
LABEL = 2 + max(len(german) for german, _english in CONTRACT_NAMES.values()) + 6


def draw_lorum_panel(canvas: Canvas, model: LorumTable, width: int, height: int) -> None:
    """Draw the open panel centred over the screen."""
    lines = panel_lines(model, max(20, width - 8))
    if not lines:
        return
    inner = min(width - 2, max(44, max(frag_width(line) for line in lines) + 3))
    rows = min(len(lines) + 2, max(3, height - 1))
    top = max(1, (height - rows) // 2)
    left = max(0, (width - inner - 2) // 2)
    draw_framed(canvas, model.glyphs, lines, top=top, left=left, inner=inner, rows=rows,
                room=inner - 2)


def panel_lines(model: LorumTable, width: int) -> list[Frags]:
    """The lines of the open panel (``width``: the room for text)."""
    panel = model.panel
    if panel is LorumPanel.HELP:
        return [[("class:panel.title", "Keys")], [], *key_rows(HELP),
                [], [("class:dim", "Esc or ? closes this")]]
    if panel is LorumPanel.QUIT:
        return leave_question(model.hosted)
    # between deals the sheet of the deal just scored, else the sheet before this deal
    sheet = model.deal_end.sheet if model.between_deals and model.deal_end else model.sheet
    if panel is LorumPanel.SHEET and sheet is not None:
        return [*sheet_lines(model, sheet), [], [("class:dim", "Esc or s closes this")]]
    if panel is LorumPanel.RULES:
        return _rules(model, width)
    if panel is LorumPanel.DEAL_END and model.deal_end is not None:
        return _deal_end(model, model.deal_end)
    if panel is LorumPanel.MATCH_END and model.sheet is not None:
        return _match_end(model, model.sheet)
    return []


def _names_row(model: LorumTable, players: int, label: str) -> Frags:
    cells = "".join(f"{model.name(s)[: COLUMN - 1]:>{COLUMN}}" for s in range(players))
    return [("class:dim", f"  {label:<{LABEL - 2}}{cells}")]


def sheet_lines(model: LorumTable, sheet: ScoreSheet) -> list[Frags]:
    """Contracts × players: each row's points so far, the current row marked, totals;
    with beans, every purse and the pot."""
    current = model.view.contract if model.view is not None else None
    lines: list[Frags] = [[("class:panel.title", "Score sheet")],
                          _names_row(model, sheet.players, "")]
    for contract in sheet.contracts:
        mark = model.glyphs.pointer if contract is current else " "
        done = f"{sheet.dealt[contract]}/{sheet.per_contract}"
        cells = "".join(f"{p:>{COLUMN}}" for p in sheet.points[contract])
        style = "class:sheet.current" if contract is current else ""
        name = CONTRACT_NAMES[contract][0]
        lines.append([(style, f"{mark} {name:<{LABEL - 8}}{done:>6}{cells}")])
    totals = "".join(f"{p:>{COLUMN}}" for p in sheet.totals)
    lines.append([("class:panel.title", f"  {'total points':<{LABEL - 2}}{totals}")])
    if sheet.scoring is Scoring.BEANS:
        lines += _purse_lines(sheet)
    return lines


def _purse_lines(sheet: ScoreSheet) -> list[Frags]:
    beans = "".join(f"{b:>{COLUMN}}" for b in sheet.beans)
    pf = "".join(f"{p:>{COLUMN}}" for p in sheet.pfennigs)
    worth = "".join(f"{w:>{COLUMN}}" for w in sheet.worth())
    pot = f"pot (Kasse): {sheet.pot} bean{'s' if sheet.pot != 1 else ''}"
    if sheet.pot_pfennigs:
        pot += f" and {sheet.pot_pfennigs} pfennig{'s' if sheet.pot_pfennigs != 1 else ''}"
    wide = LABEL - 2
    return [[], [("", f"  {'beans':<{wide}}{beans}")], [("", f"  {'pfennigs':<{wide}}{pf}")],
            [("class:panel.title", f"  {'worth (pf = 20)':<{wide}}{worth}")],
            [("", f"  {pot}")]]


def _rules(model: LorumTable, width: int) -> list[Frags]:
    view = model.view
    if view is None:
        return [[("", "The rules are shown once the deal begins.")]]
    page = rules_page("lorum", view.options, view.contract, view.players)
    lines: list[Frags] = [[line] for line in page_lines(page, min(width, 70))]
    body = [*lines[model.rules_scroll:], []]
    return [*body, [("class:dim", "Esc or r closes this · ↑/↓ scroll")]]


def _deal_end(model: LorumTable, end: DealSummary) -> list[Frags]:
    result, sheet = end.result, end.sheet
    title = f"Deal {end.number} is over: {CONTRACT_NAMES[result.contract][0]}"
    lines: list[Frags] = [[("class:panel.title", title)]]
    if result.out:
        verb = "go" if result.out[0] == model.me else "goes"
        lines.append([("class:prompt", f"{model.name(result.out[0]).capitalize()} {verb} "
                                       f"out first.")])
    if result.announced:
        lines.append([("class:notice.warning", "The Red King was announced.")])
    if end.void:
        lines.append([("class:notice.error", "A breach voids the deal: only the offender "
                                             "scores.")])
    beans = sheet.scoring is Scoring.BEANS and bool(sheet.beans)
    head = f"{'':<16}{'deal':>6}{'total':>7}" + (f"{'beans':>7}" if beans else "")
    lines += [[], [("class:dim", head)]]
    before = model.sheet if model.sheet is not sheet else None
    for seat, gained in enumerate(result.points):
        text = f"{model.name(seat):<16}{gained:>6}{sheet.totals[seat]:>7}"
        if beans:
            text += f"{sheet.beans[seat]:>7}" + _change(before, sheet, seat)
        lines.append([("class:notice.warning" if gained else "", text)])
    if beans:
        lines += _pfennig_sales(model, before, sheet)
        lines.append([("class:dim", f"pot (Kasse): {sheet.pot}")])
    calm = end.audit == "passed" or end.audit.startswith("not needed")  # offline: no audit
    audit = "class:dim" if calm else "class:notice.error"
    if end.round_over:
        lines += [[], *_round_over(model, end)]
    said = name_seats(end.audit, model.name)  # "seat 2: revoke …" names the seat
    return [*lines, [], [(audit, f"Audit: {said}")], [],
            [("class:panel.key", "Enter: continue    s: score sheet")]]


def _round_over(model: LorumTable, end: DealSummary) -> list[Frags]:
    """The end of a round that is not the last: where everyone stands."""
    sheet = end.sheet
    beans = sheet.scoring is Scoring.BEANS and bool(sheet.beans)
    scores = sheet.worth() if beans else sheet.totals
    order = ", ".join(f"{model.name(s)} {scores[s]}" for s in standings(sheet))
    unit = "beans (pf = 20)" if beans else "points"
    return [[("class:panel.title", f"Round {end.round_over} of {end.rounds} is over.")],
            [("", f"Standings in {unit}: {order}")]]


def _change(before: ScoreSheet | None, after: ScoreSheet, seat: int) -> str:
    """`` (+5)``: the beans won or paid in this deal (when the sheet before is known)."""
    if before is None or not before.beans:
        return ""
    delta = after.beans[seat] - before.beans[seat]
    return f" ({delta:+d})" if delta else ""


def _pfennig_sales(model: LorumTable, before: ScoreSheet | None, after: ScoreSheet
                   ) -> list[Frags]:
    """Who sold a pfennig to pay (their pfennigs went down)."""
    if before is None or not before.pfennigs:
        return []
    lines: list[Frags] = []
    for seat in range(after.players):
        sold = before.pfennigs[seat] - after.pfennigs[seat]
        if sold > 0:
            verb = "sell" if seat == model.me else "sells"
            lines.append([("class:notice.warning", f"{model.name(seat).capitalize()} {verb} "
                                                   f"a pfennig for 20 beans to pay.")])
    return lines


def standings(sheet: ScoreSheet) -> list[int]:
    """Seats from first to last: fewest points, or (beans) most worth."""
    if sheet.scoring is Scoring.BEANS and sheet.beans:
        worth = sheet.worth()
        return sorted(range(sheet.players), key=lambda s: -worth[s])
    return sorted(range(sheet.players), key=lambda s: sheet.totals[s])


def _match_end(model: LorumTable, sheet: ScoreSheet) -> list[Frags]:
    winners = " and ".join(model.name(s) for s in model.winners) or "nobody"
    verb = "win" if len(model.winners) != 1 or model.winners[0] == model.me else "wins"
    what = "match" if model.rounds > 1 else "round"
    lines: list[Frags] = [[("class:panel.title", f"The {what} is over: {winners} {verb}!")],
                          []]
    beans = sheet.scoring is Scoring.BEANS and bool(sheet.beans)
    # the table's order when it sent one: a seat that left is last whatever its score
    order = model.order if sorted(model.order) == list(range(sheet.players)) else None
    for place, seat in enumerate(order or standings(sheet), start=1):
        score = (f"worth {sheet.worth()[seat]:>4} beans" if beans else
                 f"{sheet.totals[seat]:>4} points")
        style = "class:panel.title" if seat in model.winners else ""
        lines.append([(style, f"{place:>2}. {model.name(seat):<16}{score}")])
    return [*lines, [], [("class:panel.key", "Enter: play again    s: score sheet    q: leave")]]

