"""What a newcomer meets first, checked: every page README and the help name is in the
repository, the help reads as help (plain text, an example per command), errors end the
program with one line and a non-zero status, a closed stdout ends it quietly, and a built
wheel installs into a fresh environment and plays."""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lodam_p2p.cli import EXAMPLES, build_parser

ROOT = Path(__file__).resolve().parent.parent
LODAM = Path(sys.executable).with_name("lodam")
#: A page named in prose: a path ending in .md.
PAGE = re.compile(r"[\w./-]*\w\.md\b")
#: What reStructuredText leaves in a text meant for Sphinx.
RST = re.compile(r"``|::\s*$|:(?:func|class|mod|meth|data|attr|exc|obj):`|\*\*\S", re.M)


def _commands() -> list[tuple[str, argparse.ArgumentParser]]:
    found: list[tuple[str, argparse.ArgumentParser]] = []

    def walk(parser: argparse.ArgumentParser, words: tuple[str, ...]) -> None:
        found.append((" ".join(words), parser))
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    walk(child, (*words, name))

    walk(build_parser(), ())
    return found


COMMANDS = _commands()


@pytest.mark.parametrize(("words", "parser"), COMMANDS, ids=[w or "lodam" for w, _ in COMMANDS])
def test_every_help_is_plain_text_with_an_example(words: str,
                                                  parser: argparse.ArgumentParser) -> None:
    text = parser.format_help()
    assert not RST.search(text), f"lodam {words} --help shows markup:\n{text}"
    assert "RULES.md" not in text and "LORUM.md" not in text
    example = re.search(r"^example: (lodam\b.*)$", text, re.M)
    assert example, f"lodam {words} --help has no example line"
    assert example.group(1) == EXAMPLES[words]
    assert example.group(1).split()[1:len(words.split()) + 1] == words.split()


def test_the_top_level_help_names_both_games_and_the_first_commands_in_order() -> None:
    text = build_parser().format_help()
    assert "Losing Lodam" in text and "Lorum" in text
    positions = [text.index(f"  lodam {command}") for command in
                 ("rules page", "play", "host", "join", "bot ")]
    assert positions == sorted(positions)


def _named_pages() -> set[str]:
    texts = [(ROOT / "README.md").read_text(encoding="utf-8")]
    texts += [parser.format_help() for _words, parser in COMMANDS]
    return {page for text in texts for page in PAGE.findall(text)}


def test_every_page_readme_and_the_help_name_is_in_the_repository() -> None:
    pages = _named_pages()
    assert "docs/rules-lodam.md" in pages and "docs/rules-lorum.md" in pages
    missing = sorted(page for page in pages if not (ROOT / page).is_file())
    assert not missing, f"named but not in the repository: {missing}"


def _run(*args: str, stdin: str | None = None, timeout: float = 120,
         cwd: Path | None = None, env: dict[str, str] | None = None
         ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LODAM), *args], capture_output=True, text=True,
                          timeout=timeout, input=stdin, cwd=cwd, env=env, check=False)


@pytest.mark.slow
def test_a_built_wheel_installs_into_a_fresh_environment_and_plays(tmp_path: Path) -> None:
    """The wheel (built from the sdist, as a user's ``uv tool install`` or ``pipx`` would)
    goes into a new venv with the lock's versions and runs an arena and the guides."""
    uv = ROOT / ".venv" / ".uv" / "bin" / "uv"
    uv_path = str(uv) if uv.is_file() else shutil.which("uv")
    assert uv_path, "uv is needed to build the wheel (make test installs it in .venv/.uv)"
    out = tmp_path / "dist"
    subprocess.run([uv_path, "build", "-q", "-o", str(out), str(ROOT)], check=True,
                   timeout=600, cwd=tmp_path)
    wheel = next(out.glob("lodam_p2p-*.whl"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    subprocess.run([uv_path, "pip", "install", "-q", "--python", str(venv / "bin" / "python"),
                    "-c", str(ROOT / "requirements-dev.lock"), str(wheel)],
                   check=True, timeout=600, cwd=tmp_path)
    lodam = venv / "bin" / "lodam"
    env = {**os.environ, "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state")}
    arena = subprocess.run([str(lodam), "arena", "--bots", "random*4", "--matches", "2",
                            "--seed", "1"], capture_output=True, text=True, timeout=300,
                           cwd=tmp_path, env=env, check=False)
    assert arena.returncode == 0, arena.stderr
    assert "random" in arena.stdout
    for game, title in (("lodam", "# Losing Lodam"), ("lorum", "# Lorum")):
        guide = subprocess.run([str(lodam), "rules", "guide", "--game", game],
                               capture_output=True, text=True, timeout=120, cwd=tmp_path,
                               env=env, check=False)
        assert guide.returncode == 0 and guide.stdout.startswith(title), guide.stderr


# -- exits that tell the truth ------------------------------------------------------------

#: A Python exception's name, which a user should never have to read.
EXCEPTION_NAME = re.compile(r"\b\w*(?:Error|Exception)\b|Traceback")


def _home(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state"),
            "XDG_CONFIG_HOME": str(tmp_path / "config")}


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("lodam") and not EXCEPTION_NAME.search(lines[0]), lines[0]
    return lines[0]


@pytest.mark.parametrize(("content", "said"), [
    ("[]", "not a transcript"),
    ("garbage", "not JSON"),
    ('{"format": "lodam-fairdeal-transcript", "version": 3}', "a field is missing"),
    (b"\xff\xfe\x00binary", "not a text file"),
    (None, "no such file"),
])
def test_verify_says_in_one_line_why_a_file_is_no_transcript(
        tmp_path: Path, content: str | bytes | None, said: str) -> None:
    path = tmp_path / "transcript.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    done = _run("verify", str(path), cwd=tmp_path, env=_home(tmp_path))
    assert done.returncode == 2 and done.stdout == ""
    assert said in _one_line(done)


@pytest.mark.parametrize("args", [
    ("play", "--bots-only", "--offline", "--option", "lives=abc"),
    ("play", "--bots-only", "--offline", "--option", "nosuch=1"),
    ("play", "--bots-only", "--offline", "--seats", "99"),
    ("play", "--bots-only", "--game", "lorum", "--offline", "--option", "contracts=nope"),
    ("play", "--bots-only", "--broker", "ftp://x"),
    ("play", "--broker", "ftp://x"),
    ("arena", "--bots", "random*4", "--option", "lives=x"),
    ("rules", "page", "--option", "lives=x"),
    ("play", "--seats", "abc"),
    ("host", "--seats", "4"),
    ("no-such-command",),
])
def test_a_bad_value_is_one_line_and_status_2(tmp_path: Path, args: tuple[str, ...]) -> None:
    done = _run(*args, cwd=tmp_path, env=_home(tmp_path))
    assert done.returncode == 2
    _one_line(done)


def test_a_broker_that_refuses_ends_bots_only_with_one_line(tmp_path: Path) -> None:
    done = _run("play", "--bots-only", "--broker", "mqtt://127.0.0.1:9", cwd=tmp_path,
                env=_home(tmp_path))
    assert done.returncode == 1
    line = _one_line(done)
    assert "cannot connect" in line and "leave out --broker" in line


@pytest.mark.parametrize("game", ["lodam", "lorum"])
@pytest.mark.parametrize("offline", [False, True], ids=["network", "offline"])
def test_a_closed_stdout_ends_bots_only_quietly(tmp_path: Path, game: str,
                                               offline: bool) -> None:
    """``lodam play --bots-only | head -3``: the reader takes three lines and goes; the
    program ends (the timeout is only a safety net), quietly, without a log that grows."""
    log = tmp_path / "lodam.log"
    args = [str(LODAM), "play", "--bots-only", "--game", game, "--log-file", str(log),
            *(["--offline"] if offline else [])]
    with subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          cwd=tmp_path, env=_home(tmp_path)) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        lines = [proc.stdout.readline() for _ in range(3)]
        proc.stdout.close()  # as head does once it has its lines
        status = proc.wait(timeout=60)
        errors = proc.stderr.read().decode()
    assert all(lines)
    assert status in (0, 141), errors
    assert "Traceback" not in errors and "BrokenPipe" not in errors
    assert "Traceback" not in log.read_text(encoding="utf-8")
    assert log.stat().st_size < 100_000


# -- one shape for options ----------------------------------------------------------------

@pytest.mark.parametrize(("argv", "dest", "expected"), [
    (["play", "--bot", "random", "--bot", "heuristic"], "bots", "random,heuristic"),
    (["play", "--bots", "random*2", "--bot", "heuristic"], "bots", "random*2,heuristic"),
    (["play", "--bots", "random"], "bots", "random"),
    (["arena", "--bot", "random", "--bot", "random"], "bots", "random,random"),
    (["arena", "--bots", "random*4"], "bots", "random*4"),
    (["host", "--table", "t", "--seats", "4", "--bots", "heuristic,random*2"], "bot",
     ["heuristic", "random", "random"]),
    (["host", "--table", "t", "--seats", "4", "--bot", "random", "--bot", "heuristic"], "bot",
     ["random", "heuristic"]),
    (["join", "oak", "--bots", "random"], "bot", "random"),
    (["join", "oak", "--bot", "random"], "bot", "random"),
])
def test_bots_are_named_either_way_in_every_command_that_seats_them(
        argv: list[str], dest: str, expected: object) -> None:
    assert getattr(build_parser().parse_args(argv), dest) == expected


def test_join_refuses_a_lineup_of_more_than_one_bot(tmp_path: Path) -> None:
    done = _run("join", "oak", "--bots", "random*2", cwd=tmp_path, env=_home(tmp_path))
    assert done.returncode == 2 and "seats one bot" in done.stderr


@pytest.mark.parametrize(("game", "args"), [
    ("lodam", ("--seats", "3", "--option", "lives=1", "--bot", "random")),
    ("lorum", ("--option", "contracts=lorum", "--bots", "random*4")),
])
def test_the_json_result_has_one_documented_shape_for_both_games(
        tmp_path: Path, game: str, args: tuple[str, ...]) -> None:
    done = _run("play", "--bots-only", "--offline", "--seed", "3", "--json", "--game", game,
                *args, cwd=tmp_path, env=_home(tmp_path))
    assert done.returncode == 0, done.stderr
    line = json.loads(done.stdout)
    assert list(line) == ["table", "game", "winners", "deals", "audits_passed", "blames",
                          "audited", "standings", "broker_faults", "bot_errors"]
    assert line["game"] == game and line["broker_faults"] == [] and line["bot_errors"] == []
    assert (line["audited"], line["audits_passed"]) == (False, 0)  # offline: nothing audited
    assert sorted(line["standings"]) == list(range(len(line["standings"])))
    assert set(line["winners"]) <= set(line["standings"])
    schema = (ROOT / "docs" / "results.md").read_text(encoding="utf-8")
    for field in line:
        assert f"| `{field}` |" in schema, field
