"""The arena's results for people (a table) and for programs (one JSON object)."""

from __future__ import annotations

from lodam_p2p.arena.runner import ArenaResult


def to_json(result: ArenaResult) -> dict[str, object]:
    """``{"matches": N, "bots": {name: {...}}, ...}``; deterministic (no timings)."""
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
    }
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
    failures = [f for record in result.records for f in record.failures]
    if failures:
        lines += ["", f"{len(failures)} bot errors (seat then played by the fallback):"]
        lines += [f"  {f.message}" for f in failures[:5]]
    return "\n".join(lines)


def _unfinished(result: ArenaResult) -> str:
    count = sum(1 for record in result.records if not record.finished)
    if not count:
        return ""
    return f", {count} stopped at {result.config.max_deals} deals"
