"""The seat journal: private, atomic, locked, and a match state that round-trips."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from lodam_p2p.games.lodam import Match, Options
from lodam_p2p.session.journal import (
    Journal,
    JournalError,
    SeatJournal,
    match_from,
    match_snapshot,
)
from lodam_p2p.session.keys import seeded


def test_the_directory_and_journal_are_readable_only_by_the_user(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "state")
    SeatJournal(journal, "seat", "oak").keep(start=["00"])
    assert stat.S_IMODE(os.stat(tmp_path / "state").st_mode) == 0o700
    assert stat.S_IMODE(os.stat(tmp_path / "state" / "journal.json").st_mode) == 0o600
    journal.close()


def test_a_second_process_cannot_take_a_locked_directory(tmp_path: Path) -> None:
    first = Journal.open(tmp_path / "state")
    with pytest.raises(JournalError, match="in use"):
        Journal.open(tmp_path / "state")
    first.close()
    Journal.open(tmp_path / "state").close()


def test_identity_epoch_and_start_survive_a_restart(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "s")
    kept = SeatJournal(journal, "seat", "oak")
    key = kept.identity(seeded(1, 1))
    assert kept.next_epoch() == 0
    kept.keep(start=["ab", {}, []])
    journal.close()
    again = Journal.open(tmp_path / "s")
    back = SeatJournal(again, "seat", None)
    assert back.rejoining and back.entry["table"] == "oak"
    assert back.identity(seeded(2, 2)).private_bytes_raw() == key.private_bytes_raw()
    assert back.next_epoch() == 1
    back.keep(outcome={"winners": [0]})
    again.close()
    done = SeatJournal(Journal.open(tmp_path / "s"), "seat", "oak")
    assert not done.rejoining  # a finished match: the next start is a new one


def test_a_torn_or_foreign_journal_is_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "journal.json").write_text("{not json")
    with pytest.raises(JournalError, match="not a journal"):
        Journal.open(tmp_path / "s")
    # an earlier protocol's journal: its envelopes would be refused, so it is refused
    (tmp_path / "s" / "journal.json").write_text('{"version": 2, "seats": {}}')
    with pytest.raises(JournalError, match="not a journal of this version"):
        Journal.open(tmp_path / "s")


def test_a_default_slot_of_an_earlier_version_is_passed_over_and_kept(tmp_path: Path) -> None:
    # after an upgrade the default slots still hold the last version's journals: a seat
    # takes the next slot, and the old file stays as it was
    old = '{"version": 2, "sessions": {"seat": {"table": "elm", "start": ["00", {}, []]}}}'
    for slot in (0, 2):
        (tmp_path / f"seat-{slot}").mkdir()
        (tmp_path / f"seat-{slot}" / "journal.json").write_text(old)
    (tmp_path / "seat-1").mkdir()
    (tmp_path / "seat-1" / "journal.json").write_text("{torn")
    picked = Journal.pick(tmp_path, "elm")
    assert picked.directory == tmp_path / "seat-3" and not picked.resumable(None)
    assert all((tmp_path / f"seat-{slot}" / "journal.json").read_text() == old
               for slot in (0, 2))
    assert (tmp_path / "seat-1" / "journal.json").read_text() == "{torn"


def test_the_default_slot_is_the_free_one_with_an_unfinished_match(tmp_path: Path) -> None:
    busy = Journal.pick(tmp_path, None)
    other = Journal.pick(tmp_path, None)
    SeatJournal(other, "seat", "elm").keep(start=["00", {}, []])
    other.close()
    picked = Journal.pick(tmp_path, "elm")
    assert picked.directory == other.directory and picked.resumable("elm")
    assert Journal.pick(tmp_path, "oak").directory not in (busy.directory, other.directory)
    assert len(list(tmp_path.iterdir())) == 3  # slots are made one at a time, as needed


def test_the_match_state_round_trips(tmp_path: Path) -> None:
    options = Options(lives=2)
    match = Match.resume(options, [2, 0, 1], 1)
    match.deals_played = 4
    snap = match_snapshot(match, 6, 4, ["seat 1: x"])
    back = match_from(json.loads(json.dumps(snap)), options, players=3)
    assert match_snapshot(back, 6, 4, ["seat 1: x"]) == snap
    with pytest.raises(ValueError):
        match_from({"lives": [1]}, options, players=1)


def test_a_lodam_match_state_keeps_the_layout_journals_were_written_in() -> None:
    kept = {"hand_no": 7, "audits": 5, "blames": ["seat 2: revoke: x (hand 3)"],
            "lives": [1, 3, 0, 2], "dealer": 3, "active": [True, True, False, True],
            "deals_played": 5, "eliminated_in": [None, None, 3, None], "is_over": False,
            "winners": []}
    match = match_from(json.loads(json.dumps(kept)), Options(), players=4)
    assert (match.lives, match.dealer, match.remaining()) == ([1, 3, 0, 2], 3, [0, 1, 3])
    again = match_snapshot(match, 7, 5, kept["blames"])
    assert again == kept and list(again) == list(kept)
    with pytest.raises(ValueError, match="unsound match state"):
        match_from({**kept, "lives": [1, 3]}, Options(), players=4)
