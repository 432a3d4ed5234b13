"""Why a match ended before its last deal, in words every screen can show.

A match that cannot go on — a seat silent hand after hand, a seat gone past its grace
period, a broken draw for the first dealer — still ends with a verdict, and nobody
should have to guess it from a list of blames. :func:`early_reason` says it in one
sentence, naming seats as "seat N" (the screens put names in); :func:`verdict_standings`
orders the seats so that the list agrees with the verdict: its winners first, the seat
that ended the match last among those still in; :func:`departed_seats` names the seats
that left or were put out, which stand below every seat that stayed (leaving never
pays). Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: The check of the blame a seat gone past its grace time earns.
LEFT = "left"
#: The check of the blame a seated peer earns by signing a START for a table it does not
#: host. The START came on the peer's own stream, which every seat hears whole, so every
#: seat blames it alike; the seat plays on (when the START reached each seat differs, so
#: no seat could put it out at the same step) but ends below every seat that did not.
FALSE_HOST = "false-host"
#: Spelled counts of failed hands, for the sentence.
_TIMES = {1: "once", 2: "twice", 3: "three times"}
_BLAME = re.compile(r"seat (\d+): ([\w-]+):")
_HAND = re.compile(r"\(hand (\d+)\)$")


def early_reason(*, seated: bool, started: bool, grace_over: bool, voids: int,
                 blamed: int | None, blames: Sequence[str]) -> str:
    """The sentence for a match ended early ("seat 2 did not answer three times: …");
    ``seated``: the roster is known, ``started``: the first dealer was drawn."""
    if not seated:
        return "the table did not fill: the match never began"
    if not started:
        found = _BLAME.match(blames[-1]) if blames and blamed is None else None
        who = f"seat {found.group(1) if found else blamed}" if found or blamed is not None \
            else "a seat"
        return f"{who} spoiled the draw for the first dealer: the match never began"
    if blamed is None:
        return "the match ends early"
    if grace_over:
        return f"seat {blamed} left and did not come back: the match ends"
    if voids == 0:
        return _put_out(blamed, blames)
    recent = [_BLAME.match(line) for line in blames[-voids:]]
    same = [m for m in recent if m is not None and int(m.group(1)) == blamed]
    times = _TIMES.get(voids, f"{voids} times")
    if recent and len(same) == len(recent):
        if all(m.group(2) == "timeout" for m in same):
            return f"seat {blamed} did not answer {times}: the match ends"
        return f"seat {blamed} failed the protocol {times}: the match ends"
    return f"{voids} hands in a row were void, the last one by seat {blamed}: the match ends"


def _put_out(blamed: int, blames: Sequence[str]) -> str:
    """The sentence for a match ended by one seat's exit with no void hand before it,
    said by that seat's last blame line ("seat 3 left the match: the match ends")."""
    for line in reversed(blames):
        found = _BLAME.match(line)
        if found is None or int(found.group(1)) != blamed:
            continue
        check = found.group(2)
        if check == "left":
            return f"seat {blamed} left the match: the match ends"
        if check == "timeout":
            return f"seat {blamed} did not answer in time: the match ends"
        return f"seat {blamed} failed the {check} check: the match ends"
    return f"seat {blamed} is out of the match: the match ends"


def expelled_reason(blames: Sequence[str]) -> str:
    """The sentence for a match played to its end after seats were put out on evidence
    ("seat 2 did not answer in time and was put out of the match"), or "" when none was.
    Silence is the usual case and is said as such; any other offence is named by its
    check."""
    parts: list[str] = []
    for line in blames:
        found = _BLAME.match(line)
        if found is None:
            continue
        seat, check = found.group(1), found.group(2)
        if check == "false-host":
            sentence = (f"seat {seat} signed a START for a table it does not host and "
                        "stands below every other seat")
        else:
            what = ("did not answer in time" if check == "timeout"
                    else f"failed the {check} check")
            sentence = f"seat {seat} {what} and was put out of the match"
        if sentence not in parts:
            parts.append(sentence)
    return "; ".join(parts)


def draw_reason(silent: int, step: int, limit: float) -> str:
    """The sentence for a hand voided because too few seats were left to find ``silent``
    at fault without a seat that gains from it: the match ends as a draw."""
    return (f"seat {silent} was silent at step {step} past the table's limit of {limit:g} s, "
            "and too few seats are left to put it out without one that gains from it: "
            "the hand is void, nobody is blamed, and the match ends as a draw")


def verdict_standings(standings: Sequence[int], winners: Sequence[int],
                      remaining: Sequence[int], blamed: int | None) -> tuple[int, ...]:
    """``standings`` (best first) reordered to agree with a verdict: ``winners`` first,
    then the other seats still in, ``blamed`` last of those, then the seats out."""

    def key(seat: int) -> tuple[int, int]:
        if seat in winners:
            group = 0
        elif seat in remaining:
            group = 2 if seat == blamed else 1
        else:
            group = 3
        return group, standings.index(seat)

    return tuple(sorted(standings, key=key))


def departed_seats(blames: Sequence[str], dealt: Sequence[bool], *, puts_out: bool,
                   ended_early: bool, waited_for: int | None, voids: int,
                   hand_no: int) -> list[int]:
    """The seats that left the match or were put out of it, the earliest first.

    A seat left when it was blamed as gone past its grace time (:data:`LEFT`), put out
    of the match on evidence (a game that ``puts_out``: blamed, and no more ``dealt``
    in), and — when the match ended early, not as a draw (``ended_early``) — when its
    absence ended it: the seat the table waited for past its grace time
    (``waited_for``), and every seat proven at fault in the run of ``voids`` void hands
    that ended the match (none: 0); and a seat that signed a START for a table it does
    not host (:data:`FALSE_HOST`). A seat left at its last blame line: the blames are
    the match's clock, the same at every honest peer."""
    named = [_blamed(line) for line in blames]
    gone = {seat for seat, check, _ in named
            if seat is not None and 0 <= seat < len(dealt)
            and (check in (LEFT, FALSE_HOST) or (puts_out and not dealt[seat]))}
    if ended_early:
        if waited_for is not None:
            gone.add(waited_for)
        elif voids:
            # a hand void without blame (a seat's return) names nobody; the run's first
            # hand is counted from the hand now, which may be one past the last void:
            # the hand before the run passed its audit and names nobody either
            first = hand_no - voids
            gone |= {seat for seat, _, hand in named if seat is not None and hand >= first}
    last = {seat: at for at, (seat, _, _) in enumerate(named) if seat is not None}
    # a false host counts as the earliest to leave, whatever step its START reached
    # this seat at: that step differs from seat to seat, the standings must not
    false = {seat for seat, check, _ in named if check == FALSE_HOST}
    return sorted((seat for seat in gone if 0 <= seat < len(dealt)),
                  key=lambda seat: (seat not in false, last.get(seat, len(named)), seat))


def _blamed(line: str) -> tuple[int | None, str, int]:
    """The seat, the check and the hand a blame line names (None, "": not a blame line;
    hand 0: it names none)."""
    found, hand = _BLAME.match(line), _HAND.search(line)
    number = int(hand.group(1)) if hand else 0
    return (int(found.group(1)), found.group(2), number) if found else (None, "", number)
