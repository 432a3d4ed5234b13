"""The waiting room, before a table's first deal, as both games' screens draw it.

One line says what the table is doing; a notice (where others join, a name already
taken …) follows; then the seats — who has taken each, who is a bot, how many are still
missing — so that whoever hosts or joins sees the table fill. Whoever hosts with bots
beside them is also told, before leaving, that the bots leave with them
(:func:`hosted_warning`).
"""

from __future__ import annotations

from collections.abc import Sequence

from lodam_p2p.player import Notice, SeatInfo
from lodam_p2p.ui.canvas import Frags
from lodam_p2p.ui.glyphs import MAX_NAME, shown_name

#: The width of the waiting room's name column: the longest name shown, and a space.
NAME_COLUMN = MAX_NAME + 1


def seat_list(line: str, seats: Sequence[SeatInfo], *, wanted: int, me: int,
              notice: Notice | None, width: int = 80) -> list[Frags]:
    """The waiting room's lines: ``line``, ``notice`` and the seats (``wanted`` of
    them; ``me`` is this screen's seat)."""
    lines: list[Frags] = [[("class:dim", line)]]
    if notice is not None:
        style = f"class:notice.{notice.level.value}"
        lines += [[], *([(style, piece.strip())] for piece in wrap(notice.text, width))]
    if not seats:
        return lines
    wanted = max(wanted, len(seats))
    missing = wanted - len(seats)
    count = f"{len(seats)} of {wanted} seats taken"
    count += f" · {missing} still missing" if missing else " · the table is full"
    lines += [[], [("class:trick.title", count)], []]
    for info in seats:
        name = shown_name(info.name)
        who = "you" if info.seat == me else name
        kind = "bot " + shown_name(info.kind[4:]) if info.kind.startswith("bot:") else "person"
        if info.seat == me:
            kind = f"{name}, {kind}"
        lines.append([("class:seat.name", f"{info.seat + 1:>2}. {who:<{NAME_COLUMN}}"),
                      ("class:dim", kind)])
    for seat in range(len(seats), wanted):
        lines.append([("class:dim", f"{seat + 1:>2}. {'…':<{NAME_COLUMN}}waiting for a player")])
    return lines


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` (a longer word stays whole); every line
    after the first is indented by two spaces."""
    lines, line = [], ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = "  " + word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line]


def hosted_warning(hosted: Sequence[str]) -> list[Frags]:
    """What leaving does to the bot seats ``hosted`` (played from here, at a table with
    others): the lines for the "Leave the table?" panel, none without such seats."""
    if not hosted:
        return []
    bots = " and ".join(hosted)
    one = len(hosted) == 1
    warn = "class:notice.warning"
    return [[(warn, f"{bots} {'plays' if one else 'play'} from here: leaving ends")],
            [(warn, f"{'that seat' if one else 'those seats'}, and the match for the "
                    "others.")], []]
