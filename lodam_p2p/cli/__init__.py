"""The ``lodam`` command line.

Each subcommand lives in its own module ``lodam_p2p/cli/cmd_<name>.py`` exposing
``register(subparsers)``; ``lodam bench`` gathers ``bench_<name>.py`` modules the same
way. Discovery keeps the subcommands independent of one another: adding one touches
no shared file.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Callable, Sequence
from types import ModuleType

from lodam_p2p import __version__

#: Exit status for malformed input (bad flags, unreadable files).
EXIT_USAGE = 2


class CliError(Exception):
    """A user-facing error: printed as one line on stderr, exit status ``code``."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.code = code


def modules_with_prefix(prefix: str) -> list[ModuleType]:
    """Import every module of this package whose name starts with ``prefix``, sorted."""
    names = sorted(
        info.name for info in pkgutil.iter_modules(__path__) if info.name.startswith(prefix)
    )
    return [importlib.import_module(f"{__name__}.{name}") for name in names]


def build_parser() -> argparse.ArgumentParser:
    """The full ``lodam`` parser with every discovered subcommand."""
    parser = argparse.ArgumentParser(
        prog="lodam",
        description="Losing Lodam on a LAN: humans and bots, fair deals, no trusted server.",
    )
    parser.add_argument("--version", action="version", version=f"lodam_p2p {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in modules_with_prefix("cmd_"):
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``lodam`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] | None = getattr(args, "run", None)
    if run is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return run(args)
    except CliError as err:
        print(f"lodam: {err}", file=sys.stderr)
        return err.code
    except KeyboardInterrupt:
        print("lodam: interrupted", file=sys.stderr)
        return 130
