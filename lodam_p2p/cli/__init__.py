"""The ``lodam`` command line.

Each subcommand lives in its own module ``lodam_p2p/cli/cmd_<name>.py`` exposing
``register(subparsers)``; ``lodam bench`` gathers ``bench_<name>.py`` modules the same
way. Discovery keeps the subcommands independent of one another: adding one touches
no shared file. A command line that names its subcommand loads that module only (a
``lodam bot`` process does not import the terminal interface, the arena or the
benchmarks); anything else — no command, an unknown one, ``--help`` — loads them all.
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


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``lodam`` parser: with ``command``, that subcommand's module only (a name with
    no ``cmd_`` module of its own loads them all, so argparse can say what is wrong)."""
    parser = argparse.ArgumentParser(
        prog="lodam",
        description="Losing Lodam on a LAN: humans and bots, fair deals, no trusted server.",
    )
    parser.add_argument("--version", action="version", version=f"lodam_p2p {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = {info.name for info in pkgutil.iter_modules(__path__)}
    if command is not None and f"cmd_{command}" in names:
        modules = [importlib.import_module(f"{__name__}.cmd_{command}")]
    else:
        modules = modules_with_prefix("cmd_")
    for module in modules:
        module.register(sub)
    return parser


def _command(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names: its first word, unless that is an option."""
    return argv[0] if argv and not argv[0].startswith("-") else None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``lodam`` console script; returns the exit status."""
    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(_command(words))
    args = parser.parse_args(words)
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
