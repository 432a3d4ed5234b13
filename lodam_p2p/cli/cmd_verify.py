"""``lodam verify FILE``: check a hand's fair-deal transcript offline.

Every signature and chain; every key, share and transfer proof; every shuffle's and
re-mask's proof of shuffle (unless the table played without proofs), and again each
against its opened commitment; and the audit, with the shuffle argument the transcript
names. Exit status 0 with a one-line verdict when the hand is sound; 1 when it is not:
naming the guilty seat and the failed check where a message it signed convicts it
(attributable), or saying that the transcript is incomplete (an envelope whose
signature fails proves nothing against anyone and is dropped, as a seat drops it; a
missing message is no evidence either); 2 when the file cannot be read as a transcript.
With ``--json``: ``sound``, ``summary``, ``attributable``, ``seat`` (the guilty seat, null
unless attributable), ``check``, ``evidence`` (the guilty seat's signed envelope, hex),
``argument`` and ``dropped`` (how many envelopes were dropped as unattributable).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from lodam_p2p.cli import CliError
from lodam_p2p.fairdeal import Transcript, verify_transcript

#: What a transcript is, for the messages about a file that is not one.
WHAT = ("lodam verify reads the transcript file a hand writes, e.g. with "
        "lodam bench deal --transcript FILE")


def _load(path: str) -> Transcript:
    """The transcript in ``path``, or one line in the user's words saying why not."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise CliError(f"{path}: not a transcript: not a text file ({WHAT})") from None
    except OSError as err:
        raise CliError(f"{path}: cannot read: {err.strerror or err}") from None
    try:
        obj = json.loads(text)
    except ValueError:
        raise CliError(f"{path}: not a transcript: not JSON ({WHAT})") from None
    if not isinstance(obj, dict) or "format" not in obj:
        raise CliError(f"{path}: not a transcript: a transcript is a JSON object with a "
                       f"\"format\" field ({WHAT})")
    try:
        return Transcript.from_json(text)
    except ValueError as err:
        said = str(err)
        if said.startswith("malformed transcript"):  # the parser's own words name types
            said = "a field is missing or has the wrong kind of value"
        raise CliError(f"{path}: not a readable transcript: {said}") from None


def run(args: argparse.Namespace) -> int:
    """Verify one transcript and print the verdict."""
    transcript = _load(args.file)
    verdict = verify_transcript(transcript)
    if args.json:
        blame = verdict.blame
        print(json.dumps({
            "sound": verdict.sound, "summary": verdict.summary,
            "attributable": verdict.attributable, "seat": verdict.guilty,
            "check": blame.check if blame else None,
            "evidence": verdict.evidence.hex() if verdict.evidence else None,
            "argument": transcript.config.argument, "dropped": len(verdict.dropped),
        }))
    elif verdict.sound:
        print(f"{args.file}: {verdict.summary}")
    else:
        print(f"{args.file}: NOT SOUND: {verdict.summary}")
    return 0 if verdict.sound else 1


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam verify``."""
    parser = sub.add_parser("verify", help="check a hand transcript offline",
                            description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", metavar="FILE", help="transcript (JSON) written by a hand")
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
    parser.set_defaults(run=run)
