"""The ``lodam`` command line.

Each subcommand lives in its own module ``lodam_p2p/cli/cmd_<name>.py`` exposing
``register(subparsers)``; ``lodam bench`` gathers ``bench_<name>.py`` modules the same
way. Discovery keeps the subcommands independent of one another: adding one touches
no shared file. A command line that names its subcommand loads that module only (a
``lodam bot`` process does not import the terminal interface, the arena or the
benchmarks); anything else — no command, an unknown one, ``--help`` — loads them all.

Help is read by players, not by Sphinx: :func:`build_parser` turns the docstrings the
commands use as descriptions into plain text (no double backquotes, no ``::``, no
cross-reference roles), points every mention of the rules files to the players' guides in
docs/, and ends each command's help with its line of :data:`EXAMPLES`
(tests/test_newcomer.py fails on a command without one).
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import re
import sys
import textwrap
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import NoReturn

from lodam_p2p import __version__

#: Exit status for malformed input (bad flags, unreadable files).
EXIT_USAGE = 2


class CliError(Exception):
    """A user-facing error: printed as one line on stderr, exit status ``code``."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.code = code


#: The top-level help: both games, and the five commands a newcomer needs, in order.
DESCRIPTION = """\
Two card games at one table, for people and bots on a LAN, dealt fairly with no
trusted server: Losing Lodam (3 to 10 players, French pack) and Lorum (3 or 4 players,
German pack). The rules, for players: docs/rules-lodam.md and docs/rules-lorum.md (or
lodam rules guide).

A newcomer's five commands, in the order you need them:
  lodam rules page                  1. read the rules (add --game lorum for Lorum)
  lodam play                        2. play against bots (--game lorum, --offline)
  lodam host --table oak --bot heuristic --listen 0.0.0.0:1883
                                    3. host a table friends can join
  lodam join                        4. find a table on the LAN and sit down
  lodam bot heuristic --table oak   5. fill an empty seat with a bot

Every command has --help."""

#: One example line per command (by its words after ``lodam``), shown under its help.
EXAMPLES = {
    "": "lodam play --game lorum --offline",
    "adversary": "lodam adversary --list",
    "arena": "lodam arena --bots heuristic,random*3 --matches 100 --seed 7",
    "bench": "lodam bench engine",
    "bench broker": "lodam bench broker",
    "bench deal": "lodam bench deal --json",
    "bench engine": "lodam bench engine --game lorum",
    "bench fuzz": "lodam bench fuzz",
    "bench ismcts": "lodam bench ismcts",
    "bench load": "lodam bench load",
    "bench net": "lodam bench net --matches 10 --json",
    "bench shuffle": "lodam bench shuffle",
    "bot": "lodam bot heuristic --table oak --broker mqtt://192.168.1.20:1883",
    "bots": "lodam bots",
    "broker": "lodam broker --listen 0.0.0.0:1883",
    "host": "lodam host --table oak --seats 5 --bot heuristic --listen 0.0.0.0:1883",
    "join": "lodam join oak --broker mqtt://192.168.1.20:1883",
    "play": "lodam play --seats 4 --bots random --option lives=1",
    "rules": "lodam rules page --game lorum --contract quartet",
    "rules guide": "lodam rules guide --game lorum",
    "rules page": "lodam rules page --game lorum --contract quartet",
    "rules replay": "lodam rules replay deals.jsonl",
    "rules show-options": "lodam rules show-options --game lorum",
    "tables": "lodam tables --broker mqtt://192.168.1.20:1883",
    "verify": "lodam verify transcript.json",
}

#: The rules files of the design notes, and the players' guide that tells each.
GUIDES = {"RULES.md": "docs/rules-lodam.md", "LORUM.md": "docs/rules-lorum.md"}


def plain(text: str) -> str:
    """``text`` with reStructuredText markup taken out, for a terminal: double backquotes,
    bold stars and cross-reference roles dropped, a closing ``::`` made ``:``, and the rules files
    (with any section number) named by their players' guides."""
    text = re.sub(r":(?:func|class|mod|meth|data|attr|exc|obj):`~?([^`]+)`",
                  lambda m: m.group(1).rsplit(".", 1)[-1], text)
    text = text.replace("``", "")
    text = re.sub(r"\*\*(\S[^*]*?)\*\*", r"\1", text)  # bold
    text = re.sub(r"::(\s*)$", r":\1", text, flags=re.M)
    for rules, guide in GUIDES.items():
        text = re.sub(rf"{re.escape(rules)}(?: section)?(?: \d+)?", guide, text)
    return re.sub(r"(?<![\w/])SPEC\.md", "protocol/SPEC.md", text)


class _Paragraphs(argparse.HelpFormatter):
    """Argparse's filling, paragraph by paragraph (a blank line between them stays), that
    never breaks a line inside a word at a hyphen (docs/rules-lorum.md stays whole)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n\n".join(
            textwrap.fill(" ".join(part.split()), width, initial_indent=indent,
                          subsequent_indent=indent, break_on_hyphens=False)
            for part in re.split(r"\n\s*\n", text))

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


def _walk(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()
          ) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """``parser`` and every subcommand's parser under it, each with its command words."""
    found = [(words, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                found += _walk(child, (*words, name))
    return found


def _one_line_errors(parser: argparse.ArgumentParser) -> None:
    """A bad command line is one line on stderr, naming the help (argparse would print
    the whole usage first), and exit status 2."""
    if "error" in vars(parser):
        return  # the command has its own way of saying it

    def error(message: str) -> NoReturn:
        print(f"{parser.prog}: {message} (see {parser.prog} --help)", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)

    parser.error = error  # type: ignore[method-assign]


def _readable(parser: argparse.ArgumentParser) -> None:
    """Every help text under ``parser`` made plain, with its command's example line."""
    for words, each in _walk(parser):
        _one_line_errors(each)
        if each.description:
            each.description = plain(each.description)
        example = EXAMPLES.get(" ".join(words))
        if example is not None and "example:" not in (each.epilog or ""):
            each.epilog = plain(f"{each.epilog}\n\n" if each.epilog else "") + \
                f"example: {example}"
        if each.formatter_class is argparse.HelpFormatter:
            each.formatter_class = _Paragraphs
        for action in each._actions:
            if isinstance(action.help, str):
                action.help = plain(action.help)
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    choice.help = plain(choice.help) if choice.help else choice.help


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
        prog="lodam", description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
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
    _readable(parser)
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
    except BrokenPipeError:
        _reader_gone()
        return EXIT_PIPE


#: Exit status when the reader of standard output went away (128 + SIGPIPE, as a shell
#: reports a command that a closed pipe ended).
EXIT_PIPE = 141


def _reader_gone() -> None:
    """Standard output is a closed pipe (``| head``): point it at /dev/null, so that the
    interpreter's flush at exit does not fail on it again and print a traceback."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):
        pass
