"""The pace of the bots beside a person: ``--bot-delay`` and its default.

A leaf of the ``play`` route: the command (:mod:`.cmd_play`), the seat of a person
(:mod:`.person`) and the network commands' shared flags (:mod:`.netrun`) all read the
flag the same way, and none of them has to import another for it.
"""

from __future__ import annotations

import argparse

#: Default seconds before a bot seated beside the person plays a card.
DEFAULT_DELAY = 0.6
#: The longest ``--bot-delay`` taken, in seconds.
MAX_DELAY = 30.0


def seconds(text: str) -> float:
    """A ``--bot-delay`` value: 0 to 30 seconds."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= MAX_DELAY:
        raise argparse.ArgumentTypeError(f"a delay of 0 to 30 seconds, not {text!r}")
    return value
