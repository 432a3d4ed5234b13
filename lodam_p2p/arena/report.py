"""The arena's results for people (a table) and for programs (one JSON object)."""

from __future__ import annotations

from lodam_p2p.arena.runner import ArenaResult
from lodam_p2p.arena.summary import BotFailure, decision_ms
from lodam_p2p.bots.faults import last_frame

#: Bot errors the text report lists before "… and K more".
SHOWN_ERRORS = 5


def bot_error_json(failure: BotFailure) -> dict[str, object]:
    """One entry of ``bot_errors`` (docs/results.md): kind, seat, decision, message."""
    return {"kind": failure.kind, "bot": failure.bot, "seat": failure.seat,
            "decision": failure.decision, "message": failure.message}


def to_json(result: ArenaResult, *, timings: bool = False) -> dict[str, object]:
    """``{"matches": N, "bots": {name: {...}}, ...}``; deterministic unless ``timings``
    adds ``decision_ms`` (per bot, percentiles of its decision times)."""
    config = result.config
    bots = result.bots()
    out: dict[str, object] = {
        "game": config.game,
        "matches": result.matches,
        "bots": {name: summary.to_json() for name, summary in bots.items()},
        "seats": config.seats,
        "seed": config.seed,
        "deals": result.deals,
        "unfinished": sum(1 for record in result.records if not record.finished),
        "errors": [
            {"group": r.group, "rotation": r.rotation, "variant": r.variant,
             "seat": f.seat, "bot": f.bot, "message": f.message}
            for r in result.records for f in r.failures
        ][:20],
        "bot_errors": [bot_error_json(f) for r in result.records for f in r.failures],
    }
    if timings:
        out["decision_ms"] = decision_ms(result.records)
    comparison = result.comparison()
    if comparison is not None:
        out["comparison"] = comparison.to_json()
    return out


def to_text(result: ArenaResult) -> str:
    """A table per bot name, the comparison, and the errors (first few)."""
    config = result.config
    lines = [
        f"{result.matches} matches, {result.deals} deals, {config.seats} seats, "
        f"seed {config.seed}" + _unfinished(result),
        "",
        f"{'bot':<18}{'seats':>6}{'win share':>11}{'95% interval':>17}{'fair':>7}"
        f"{'mean rank':>11}{'lost/deal':>11}{'errors':>8}",
    ]
    for name, s in result.bots().items():
        seats = f"{s.seats:g}"
        interval = f"[{s.ci95[0]:.3f}, {s.ci95[1]:.3f}]"
        lines.append(
            f"{name:<18}{seats:>6}{s.win_share:>11.3f}{interval:>17}{s.fair_share:>7.3f}"
            f"{s.mean_rank:>11.2f}{s.counters_lost_per_deal:>11.3f}{s.errors:>8}"
        )
    comparison = result.comparison()
    if comparison is not None:
        diff = comparison.difference
        lines += [
            "",
            f"paired comparison from the same seat on the same deals ({comparison.pairs} pairs,"
            f" {comparison.groups} groups{', stopped early' if comparison.stopped_early else ''}):",
            f"  {comparison.a} wins {comparison.a_win_share:.3f}, "
            f"{comparison.b} wins {comparison.b_win_share:.3f}",
            f"  difference {comparison.a} - {comparison.b}: {diff.mean:+.3f}, "
            f"95% interval [{diff.low:+.3f}, {diff.high:+.3f}]"
            + ("  (excludes 0)" if diff.excludes(0.0) else "  (includes 0)"),
        ]
    lines += _timings(result)
    failures = [f for record in result.records for f in record.failures]
    if failures:
        lines += ["", f"{len(failures)} bot errors (seat then played by the fallback):"]
        lines += [f"  {f.kind} at {f.decision}: {f.message}{_where(f)}"
                  for f in failures[:SHOWN_ERRORS]]
        if len(failures) > SHOWN_ERRORS:
            lines.append(f"  … and {len(failures) - SHOWN_ERRORS} more (--json lists them all)")
    return "\n".join(lines)


def _where(failure: BotFailure) -> str:
    where = last_frame(failure.trace)
    return f" (at {where})" if where else ""


def _timings(result: ArenaResult) -> list[str]:
    """Per bot, the percentiles of its decision times (ms)."""
    by_bot = decision_ms(result.records)
    if not by_bot:
        return []
    lines = ["", "decision time (ms)   p50       p90       p99       max"]
    for name, p in by_bot.items():
        lines.append(f"  {name:<18}{p['p50']:>8.3f}  {p['p90']:>8.3f}  {p['p99']:>8.3f}  "
                     f"{p['max']:>8.3f}")
    return lines


def _unfinished(result: ArenaResult) -> str:
    count = sum(1 for record in result.records if not record.finished)
    if not count:
        return ""
    return f", {count} stopped at {result.config.max_deals} deals"
