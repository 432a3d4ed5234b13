"""Measure the fair-deal costs and rewrite the table of SPEC.md section 11.

    python protocol/gen_figures.py            # measure, rewrite the table in SPEC.md
    python protocol/gen_figures.py --print    # measure, print the table only
    python protocol/gen_figures.py --repeat 5 # hands per row (medians; default 3)

Every row is ``lodam bench deal`` (``--workload hand`` and ``--workload deal``) or
``lodam bench shuffle``, run in this process for every shipped shuffle argument, so the
table is one machine at one time: the first line under it says which (one libsecp256k1
multiplication's time, the load average, the date). The table sits between the markers
``<!-- figures:begin -->`` and ``<!-- figures:end -->``; nothing else in SPEC.md is
touched.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
from pathlib import Path
from typing import Any

from lodam_p2p.cli.bench_deal import play_once, us_per_mult
from lodam_p2p.cli.bench_shuffle import measure
from lodam_p2p.fairdeal.group import native_msm
from lodam_p2p.fairdeal.memo import MEMO

SPEC = Path(__file__).resolve().parent / "SPEC.md"
BEGIN, END = "<!-- figures:begin -->", "<!-- figures:end -->"
ARGUMENTS = ("tw", "bg", "none")
#: (workload, seats, cards) of every hand row.
HANDS = (("deal", 5, 52), ("hand", 5, 52), ("deal", 10, 52), ("hand", 10, 52),
         ("deal", 16, 104))


def _hands(workload: str, seats: int, cards: int, argument: str,
           repeat: int) -> dict[str, Any] | None:
    args = argparse.Namespace(seats=seats, cards=cards, workload=workload, hand_size=None,
                              argument=argument)
    try:
        runs = [play_once(args).figures() for _ in range(repeat)]
    except ValueError:  # the argument cannot carry this deck in one body
        return None
    cpu = sorted(r["cpu_ms_per_seat"] for r in runs)
    path = sorted(r["critical_path_ms"] for r in runs)
    return {**runs[0], "cpu": cpu, "path": path}


def _median(values: list[float]) -> float:
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


def hand_rows(repeat: int) -> list[str]:
    """The table of hands: one row per workload, table size and argument."""
    rows = ["| workload | seats | cards | argument | CPU per seat, ms: median (min–max) "
            "| critical path, ms | rounds | envelopes | bytes | multiplications per seat "
            "(equivalent) |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for workload, seats, cards in HANDS:
        for argument in ARGUMENTS:
            f = _hands(workload, seats, cards, argument, repeat)
            if f is None:
                rows.append(f"| {workload} | {seats} | {cards} | {argument} | does not fit "
                            "one body | | | | | |")
                continue
            rows.append(
                f"| {workload} | {seats} | {cards} | {argument} | {_median(f['cpu']):.1f} "
                f"({f['cpu'][0]:.1f}–{f['cpu'][-1]:.1f}) | {_median(f['path']):.1f} | "
                f"{f['rounds']} | {f['envelopes']} | {f['bytes_per_hand']:,} | "
                f"{f['equivalent_mults_per_seat']:,} |")
    return rows


def shuffle_rows(rounds: int) -> list[str]:
    """One proof of shuffle over 52 ciphertexts, per argument."""
    rows = ["| argument | cards | prove, ms | parse, ms | verify, ms | proof bytes |",
            "|---|---|---|---|---|---|"]
    for argument in ARGUMENTS:
        for cards in (52, 9):
            f = measure(cards, rounds, argument)
            rows.append(f"| {argument} | {cards} | {f['prove_ms']} | {f['decode_ms']} | "
                        f"{f['verify_ms']} | {f['proof_bytes']:,} |")
    return rows


def table(repeat: int) -> str:
    """The whole block between the markers, measured now."""
    MEMO.enabled = False  # each seat pays for its own checks, as on its own machine
    speed = us_per_mult()
    hands = hand_rows(repeat)
    proofs = shuffle_rows(max(repeat, 5))
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    today = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return "\n".join([
        BEGIN,
        f"Measured by `python protocol/gen_figures.py --repeat {repeat}` on {today}: "
        f"{os.cpu_count()} cores, load average {load}, one libsecp256k1 multiplication "
        f"{speed:.1f} µs, native sums {'built' if native_msm() else 'not built'}. Process "
        "time inside each seat's protocol object; bytes count each envelope once; the "
        "critical path is the sequential CPU along the longest chain of messages.",
        "",
        *hands,
        "",
        "One proof of shuffle (`lodam bench shuffle`, median of "
        f"{max(repeat, 5)}; 9 ciphertexts is a re-mask of a 9-card hand):",
        "",
        *proofs,
        END,
    ])


def rewrite(text: str, block: str) -> str:
    """SPEC.md's text with the block between the markers replaced."""
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[:start] + block + text[end:]


def main(argv: list[str]) -> int:
    """Measure; print or rewrite."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="hands per row (medians)")
    parser.add_argument("--print", action="store_true", help="print the table only")
    args = parser.parse_args(argv)
    block = table(args.repeat)
    if args.print:
        print(block)
    else:
        SPEC.write_text(rewrite(SPEC.read_text(encoding="utf-8"), block), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
