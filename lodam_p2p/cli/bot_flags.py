"""The two shapes of naming bots on the command line, accepted by every command that
seats bots (``play``, ``arena``, ``host``, ``join``).

``--bots LINEUP`` is a comma list where ``NAME*K`` fills K seats (``heuristic,random*3``);
``--bot NAME`` names one bot and may be repeated. ``play`` and ``arena`` keep a lineup
(the text ``--bots`` gives): :class:`OneBot` adds a ``--bot`` to it. ``host`` keeps a
list of names (``--bot`` appended): :class:`Lineup` adds every name of a ``--bots`` to it.
``join`` seats one bot (or the person): :class:`SingleLineup` takes a lineup of one.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any


def lineup_names(text: str) -> list[str]:
    """The names of ``--bots LINEUP``, one per seat; ``ArgumentTypeError`` if malformed."""
    from lodam_p2p.arena.config import ArenaError, parse_lineup  # noqa: PLC0415

    try:
        return list(parse_lineup(text))
    except ArenaError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


class OneBot(argparse.Action):
    """``--bot NAME`` where the command keeps a lineup: the first ``--bot`` replaces the
    default lineup, later ones (and a ``--bots`` given before) are added to it."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None
                 ) -> None:
        name = str(values).strip()
        if not name or "," in name or "*" in name:
            raise argparse.ArgumentError(self, f"one bot name, not {name!r} (--bots takes "
                                               f"a lineup)")
        given = getattr(namespace, "given", None) or set()
        current = getattr(namespace, self.dest, None)
        chosen = self.dest in given or current != parser.get_default(self.dest)
        setattr(namespace, self.dest, f"{current},{name}" if chosen and current else name)
        namespace.given = given | {self.dest}


class SingleLineup(argparse.Action):
    """``--bots LINEUP`` where the command seats one bot: a lineup of one seat, stored as
    that bot's name."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None
                 ) -> None:
        try:
            names = lineup_names(str(values))
        except argparse.ArgumentTypeError as err:
            raise argparse.ArgumentError(self, str(err)) from None
        if len(names) != 1:
            raise argparse.ArgumentError(self, f"this command seats one bot, not "
                                               f"{len(names)}: run it once per bot")
        setattr(namespace, self.dest, names[0])


class Lineup(argparse.Action):
    """``--bots LINEUP`` where the command keeps a list of names (``--bot`` appended):
    every seat of the lineup is added to the list."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None
                 ) -> None:
        try:
            names = lineup_names(str(values))
        except argparse.ArgumentTypeError as err:
            raise argparse.ArgumentError(self, str(err)) from None
        setattr(namespace, self.dest, [*(getattr(namespace, self.dest, None) or []), *names])
