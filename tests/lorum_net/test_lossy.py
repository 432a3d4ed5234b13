"""Lorum on a lossy network: the hub drops, duplicates, reorders and delays the peer
topics, and every deal still plays through, every audit passes and nobody is blamed.

The streams deliver each peer's messages in its order, but not in order across peers:
one seat's openings (NOTES) may come before another seat's last move. Openings wait for
the moves their sender had taken (protocol/SPEC.md 14, "A silent holder")."""

from __future__ import annotations

import pytest

from lodam_p2p.transport.memory import MemoryHub
from tests.lorum_net.helpers import lorum_table
from tests.session.helpers import PATIENT, lossy, run_all
from tests.support.aio import MATCH_PATIENCE
from tests.support.virtual import run_on_table_clock as run

#: (hub seed, seats, options): every contract at three and four seats, the blind Red
#: King, and the short First-and-last dealt on from a carried deck
CASES = [
    (3, 4, ("contracts=quartet,lorum",)),
    (11, 4, ("contracts=quartet,lorum",)),
    (5, 3, ("contracts=quartet,lorum",)),
    (7, 4, ("contracts=reds,obers,tricks,first_last",)),
    (9, 3, ("contracts=fifth,red_king,tricks",)),
    (13, 3, ("contracts=red_king,reds", "red_king_blind=true")),
    (17, 4, ("contracts=first_last,fifth", "first_last_short=true")),
    (19, 3, ("contracts=first_last", "first_last_short=true")),
]


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "seats", "options"), CASES)
def test_a_lorum_table_plays_through_a_lossy_hub(seed: int, seats: int,
                                                 options: tuple[str, ...]) -> None:
    sessions = lorum_table(MemoryHub(lossy(seed)), seats, *options, timing=PATIENT,
                           seed=seed)
    outcomes = run(run_all(sessions), MATCH_PATIENCE)
    first = outcomes[0]
    assert all(o == first for o in outcomes), outcomes
    contracts = options[0].removeprefix("contracts=").split(",")
    assert first.blames == ()
    assert first.deals == first.audits_passed == seats * len(contracts)
