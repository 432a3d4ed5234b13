"""``lodam verify FILE``: check a hand's fair-deal transcript offline.

Every signature and chain; every key, share and transfer proof; every shuffle's and
re-mask's proof of shuffle (unless the table played without proofs), and again each
against its opened commitment; and the audit. Exit status 0 with a one-line verdict when
the hand is sound; 1 naming the guilty seat and the failed check; 2 when the file cannot be
read as a transcript.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from lodam_p2p.cli import CliError
from lodam_p2p.fairdeal import Transcript, verify_transcript


def _load(path: str) -> Transcript:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise CliError(f"{path}: cannot read: {err}") from None
    try:
        return Transcript.from_json(text)
    except ValueError as err:
        raise CliError(f"{path}: not a readable transcript: {err}") from None


def run(args: argparse.Namespace) -> int:
    """Verify one transcript and print the verdict."""
    verdict = verify_transcript(_load(args.file))
    if args.json:
        blame = verdict.blame
        print(json.dumps({
            "sound": verdict.sound, "summary": verdict.summary,
            "seat": blame.seat if blame else None, "check": blame.check if blame else None,
            "evidence": verdict.evidence.hex() if verdict.evidence else None,
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
