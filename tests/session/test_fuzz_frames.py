"""Random and mutated frames through a session's receive path: nothing escapes.

The full run is ``lodam bench fuzz --frames 1000000``; this is its seeded small version.
"""

from __future__ import annotations

from lodam_p2p.cli.bench_fuzz import fuzz
from tests.support.virtual import run_on_table_clock as run


def test_twenty_thousand_frames_raise_nothing() -> None:
    report = run(fuzz(20_000, seed=12, per_table=10_000), 600)
    assert report.frames == 20_000 and report.tables == 2
    assert report.exceptions == 0, "\n".join(report.tracebacks.values())
    assert set(report.by_mutation) >= {"random", "flip", "signed-mutated-body",
                                       "signed-restamped-body", "signed-control"}
