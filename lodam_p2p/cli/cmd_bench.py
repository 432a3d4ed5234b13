"""``lodam bench …``: speed figures, measured (never asserted in tests).

Each benchmark lives in ``bench_<name>.py`` beside this file and exposes
``register(subparsers)``.
"""

from __future__ import annotations

import argparse

from lodam_p2p.cli import modules_with_prefix


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam bench`` and every discovered benchmark under it."""
    parser = sub.add_parser("bench", help="measure speed figures", description=__doc__)
    benches = parser.add_subparsers(dest="bench", metavar="BENCH")
    for module in modules_with_prefix("bench_"):
        module.register(benches)

    def usage(_args: argparse.Namespace) -> int:
        parser.print_help()
        return 2

    parser.set_defaults(run=usage)
