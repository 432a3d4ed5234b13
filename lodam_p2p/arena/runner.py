"""Running an arena: the schedule of rotation groups, worker processes, early stop.

The unit of work is a rotation group (every rotation of the line-up on one deck
stream; both A and B in a comparison). A group's records depend only on the
configuration and the group number, so worker processes can play groups in any order:
results are gathered back in group order, and ``--jobs N`` reports exactly what
``--jobs 1`` reports. Early stop looks at the groups in that same order, so it stops at
the same group whatever the number of workers.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lodam_p2p.arena.config import ArenaConfig, check_against
from lodam_p2p.arena.match import MatchPlayer
from lodam_p2p.arena.stats import z_for
from lodam_p2p.arena.summary import (
    BotSummary,
    Comparison,
    MatchRecord,
    compare,
    summarize,
)
from lodam_p2p.bots.api import BotStartError
from lodam_p2p.bots.registry import BotRegistry

#: Called after each group with (matches done, matches planned).
ProgressHook = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class EarlyStop:
    """Stop a comparison once the interval of the difference excludes zero.

    Looking again and again at a growing sample and stopping at the first "significant"
    look finds differences that are not there more often than the nominal rate; the
    stop therefore uses a stricter interval (``confidence``, 99% by default) than the
    95% one reported, looks only every ``every`` groups, and never before ``min_groups``.
    """

    confidence: float = 0.99
    min_groups: int = 10
    every: int = 5

    def should_stop(self, records: list[MatchRecord], groups: int, a: str, b: str) -> bool:
        """Whether to stop after ``groups`` groups whose records are ``records``."""
        if groups < self.min_groups or groups % self.every:
            return False
        return compare(records, a, b, z=z_for(self.confidence)).difference.excludes(0.0)


@dataclass(slots=True)
class ArenaResult:
    """What an arena run came to."""

    config: ArenaConfig
    records: list[MatchRecord] = field(default_factory=list)
    seconds: float = 0.0
    stopped_early: bool = False

    @property
    def matches(self) -> int:
        """Matches played."""
        return len(self.records)

    @property
    def deals(self) -> int:
        """Deals played in all matches."""
        return sum(record.deals for record in self.records)

    def bots(self) -> dict[str, BotSummary]:
        """The per-bot figures."""
        return summarize(self.records)

    def comparison(self) -> Comparison | None:
        """The paired comparison, when one was asked for."""
        if self.config.compare is None:
            return None
        a, b = self.config.compare
        return compare(self.records, a, b, stopped_early=self.stopped_early)


# One registry per worker process, loaded once (or inherited from the parent on fork).
_WORKER: MatchPlayer | None = None


def load_registry(config: ArenaConfig) -> BotRegistry:
    """The bot registry the configuration asks for."""
    return BotRegistry.load(
        [Path(folder) for folder in config.plugin_dirs],
        entry_points=config.entry_points,
        default_dirs=config.default_plugin_dirs,
    )


def _init_worker(config: ArenaConfig) -> None:
    global _WORKER  # noqa: PLW0603 - the per-process worker state
    if _WORKER is None or _WORKER.config != config:
        _WORKER = MatchPlayer(config, load_registry(config))


def play_group(player: MatchPlayer, group: int,
               played: Callable[[], None] | None = None) -> list[MatchRecord]:
    """Every match of one rotation group, in schedule order; ``played`` is called after
    each match (progress within a long group)."""
    config = player.config
    records = []
    for rotation in range(config.seats):
        for variant in range(config.variants):
            records.append(player.play(group, rotation, variant))
            if played is not None:
                played()
    return records


def _play_group_in_worker(group: int) -> list[MatchRecord]:
    assert _WORKER is not None, "worker not initialised"
    return play_group(_WORKER, group)


def _groups(player: MatchPlayer, jobs: int,
            played: Callable[[], None] | None = None) -> Iterator[list[MatchRecord]]:
    """Every group's records, in group order, played by ``jobs`` processes (in this
    one, ``played`` is told of every match)."""
    groups = range(player.config.groups)
    if jobs <= 1:
        for group in groups:
            yield play_group(player, group, played)
        return
    global _WORKER  # noqa: PLW0603 - forked workers inherit the loaded registry
    _WORKER = player
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with context.Pool(jobs, initializer=_init_worker, initargs=(player.config,)) as pool:
        yield from pool.imap(_play_group_in_worker, groups, chunksize=1)
        pool.terminate()


def run_arena(
    config: ArenaConfig,
    registry: BotRegistry | None = None,
    *,
    jobs: int = 1,
    early_stop: EarlyStop | None = None,
    progress: ProgressHook | None = None,
    clock: Callable[[], float] | None = None,
) -> ArenaResult:
    """Play every match of ``config`` and gather the records.

    ``clock`` times each decision against its bot's budget (default
    ``time.perf_counter``; a test passes its own). Worker processes (``jobs`` > 1) use
    the default."""
    registry = registry if registry is not None else load_registry(config)
    check_against(config, registry)
    player = (MatchPlayer(config, registry) if clock is None
              else MatchPlayer(config, registry, clock))
    result = ArenaResult(config)
    started = time.perf_counter()
    per_group = config.seats * config.variants
    groups_done = 0
    matches_done = 0

    def played() -> None:  # progress match by match when the matches play here
        nonlocal matches_done
        matches_done += 1
        if progress is not None:
            progress(matches_done, config.total_matches)

    stream = _groups(player, jobs, played)
    try:
        for records in stream:
            result.records.extend(records)
            groups_done += 1
            if progress is not None and jobs > 1:
                progress(groups_done * per_group, config.total_matches)
            if early_stop and config.compare and early_stop.should_stop(
                result.records, groups_done, *config.compare
            ):
                result.stopped_early = True
                break
    except BotStartError as err:  # a factory that fails only at some seats or seeds
        raise err.from_source(registry.source(err.bot_name)) from err.err
    finally:
        if hasattr(stream, "close"):
            stream.close()
    result.seconds = time.perf_counter() - started
    return result
