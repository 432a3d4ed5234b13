"""A second, deliberately plain reading of LORUM.md, for checking the engine.

Nothing here is shared with ``lodam_p2p.games.lorum``: cards are strings (``"OH"``),
hands are lists, and a deal is played by one straight-line function per contract shape
that asks ``choose(seat, kind, legal)`` for every real decision (``kind`` is ``"play"``,
``"lay"`` or ``"announce"``; ``legal`` the list of allowed answers). The result has the
fields of the replay output.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

RANKS = "789TUOKA"
Choose = Callable[[int, str, list[Any]], Any]


def rank(card: str) -> int:
    return RANKS.index(card[0])


def deal_out(players: int, dealer: int, deck: list[str]) -> list[list[str]]:
    hands: list[list[str]] = [[] for _ in range(players)]
    for k, card in enumerate(deck):
        hands[(dealer + 1 + k % players) % players].append(card)
    return hands


def referee(players: int, dealer: int, contract: str, deck: list[str], *,
            options: dict[str, Any], choose: Choose) -> dict[str, Any]:
    dealt = deal_out(players, dealer, deck)
    state: dict[str, Any] = {
        "hands": [list(h) for h in dealt], "tricks": [], "lays": [],
        "points": [0] * players, "announced": False, "out": [],
    }
    eldest = (dealer + 1) % players
    if contract == "quartet":
        _quartet(state, players, eldest, choose)
    elif contract == "lorum":
        _lorum(state, players, eldest, options, choose)
    else:
        _tricks(state, players, eldest, contract, options=options, dealt=dealt, choose=choose)
    return {
        "hands": {str(s): h for s, h in enumerate(dealt)},
        "tricks": state["tricks"], "lays": state["lays"], "points": state["points"],
        "announced": state["announced"], "out": state["out"],
        "next_dealer": (dealer + 1) % players,
    }


def trick_legal(hand: list[str], trick: list[str], first: bool, contract: str) -> list[str]:
    if trick:
        same = [c for c in hand if c[1] == trick[0][1]]
        if same:
            if first and contract == "obers":
                plain = [c for c in same if c[0] != "O"]
                return plain if plain else same
            return same
    pool = list(hand)
    if first and contract == "reds":
        return [c for c in pool if c[1] != "H"] or pool
    if first and contract == "obers":
        return [c for c in pool if c[0] != "O"] or pool
    return pool


def _tricks(state: dict[str, Any], n: int, leader: int, contract: str, *,
            options: dict[str, Any], dealt: list[list[str]], choose: Choose) -> None:
    hands = state["hands"]
    count = len(hands[0])
    blind = contract == "red_king" and options.get("red_king_blind", False)
    taken: list[str] = []
    for t in range(count):
        if contract == "red_king" and not blind and t == count - 1:
            holders = [s for s in range(n) if "KH" in hands[s]]
            if holders:
                state["announced"] = bool(choose(holders[0], "announce", [False, True]))
        cards: list[list[Any]] = []
        for i in range(n):
            seat = (leader + i) % n
            if blind:
                card = dealt[seat][t]
            else:
                legal = trick_legal(hands[seat], [c for _, c in cards], t == 0, contract)
                card = choose(seat, "play", legal)
            hands[seat].remove(card)
            cards.append([seat, card])
        led = cards[0][1][1]
        winner = max((c for c in cards if c[1][1] == led), key=lambda c: rank(c[1]))[0]
        won = [c for _, c in cards]
        taken += won
        points = _trick_points(contract, options, t, count, won=won,
                               announced=state["announced"], blind=blind)
        state["points"][winner] += points
        state["tricks"].append({"leader": leader, "cards": cards, "winner": winner,
                                "points": points})
        leader = winner
        if _ends_early(contract, options, t, taken):
            return


def _trick_points(contract: str, options: dict[str, Any], t: int, count: int, *,
                  won: list[str], announced: bool, blind: bool) -> int:
    if contract == "reds":
        return sum(1 for c in won if c[1] == "H")
    if contract == "obers":
        return sum(2 for c in won if c[0] == "O")
    if contract == "tricks":
        return 1
    if contract == "first_last":
        return options.get("first_last_points", 4) if t in (0, count - 1) else 0
    if contract == "fifth":
        sixth = options.get("fifth_trick", 5) == 6
        if t == (5 if sixth else 4):
            return 5 if sixth else 8
        return 0
    if "KH" not in won:
        return 0
    if blind:
        return 5
    if t == 0:
        return 16
    if t == count - 1:
        return 64 if announced else 32
    return 8


def _ends_early(contract: str, options: dict[str, Any], t: int, taken: list[str]) -> bool:
    if contract == "reds":
        return sum(1 for c in taken if c[1] == "H") == 8
    if contract == "obers":
        return sum(1 for c in taken if c[0] == "O") == 4
    if contract == "fifth":
        return t + 1 == options.get("fifth_trick", 5)
    if contract == "red_king":
        return "KH" in taken
    return False


def _quartet(state: dict[str, Any], n: int, leader: int, choose: Choose) -> None:
    hands = state["hands"]
    while True:
        card = choose(leader, "play", sorted(hands[leader]))
        hands[leader].remove(card)
        run = [[leader, card]]
        last = leader
        while hands[last] and len(run) < 4 and card[0] != "A":
            card = RANKS[rank(card) + 1] + card[1]
            holders = [s for s in range(n) if card in hands[s]]
            if not holders:
                break
            last = holders[0]
            hands[last].remove(card)
            run.append([last, card])
        state["tricks"].append({"leader": leader, "cards": run, "winner": last, "points": 0})
        if not hands[last]:
            state["out"].append(last)
            for s in range(n):
                state["points"][s] += len(hands[s])
            return
        leader = last


def _fits(card: str, rows: dict[str, list[str]], start: int | None, unter: bool) -> bool:
    row = rows.get(card[1], [])
    if unter:
        if not row:
            return card[0] == "U"
        ranks = [rank(c) for c in row]
        return rank(card) == max(ranks) + 1 or rank(card) == min(ranks) - 1
    if start is None:
        return True
    if not row:
        return rank(card) == start
    return len(row) < 8 and rank(card) == (rank(row[-1]) + 1) % 8


def _lorum(state: dict[str, Any], n: int, turn: int, options: dict[str, Any],
           choose: Choose) -> None:
    hands, points, out = state["hands"], state["points"], state["out"]
    unter = options.get("lorum_start", "any") == "unter"
    play_on = options.get("lorum_play_on", False)
    rows: dict[str, list[str]] = {}
    aside = ["7S", "8S"] if n == 3 else []
    start: int | None = None
    while True:
        if hands[turn]:
            legal = [c for c in hands[turn] if _fits(c, rows, start, unter)]
            if not legal:
                state["lays"].append([turn, None])
                points[turn] += 1
            else:
                card = choose(turn, "lay", legal)
                hands[turn].remove(card)
                if start is None:
                    start = rank(card)
                rows.setdefault(card[1], []).append(card)
                state["lays"].append([turn, card])
                laid = True
                while laid:
                    laid = False
                    for extra in list(aside):
                        if _fits(extra, rows, start, unter):
                            aside.remove(extra)
                            rows.setdefault("S", []).append(extra)
                            state["lays"].append([None, extra])
                            laid = True
                if not hands[turn]:
                    out.append(turn)
                    for s in range(n):
                        points[s] += len(out) * len(hands[s])
                    if not play_on or len(out) == n - 1:
                        return
        turn = (turn + 1) % n
