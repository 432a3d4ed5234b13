"""SPEC.md section 11's table is the one protocol/gen_figures.py writes."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2] / "protocol"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_figures", ROOT / "gen_figures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_cost_table_is_written_by_the_script() -> None:
    gen = _script()
    text = (ROOT / "SPEC.md").read_text(encoding="utf-8")
    block = text[text.index(gen.BEGIN):text.index(gen.END)]
    assert block.count(gen.BEGIN) == 1 and gen.END not in block
    assert "Measured by `python protocol/gen_figures.py" in block
    rows = [line for line in block.splitlines() if line.startswith("| ")]
    # a header, a row per workload, table size and argument; a header, a row per argument
    # and proof size
    assert len(rows) == 1 + len(gen.HANDS) * len(gen.ARGUMENTS) + 1 + 2 * len(gen.ARGUMENTS)
    for workload, seats, cards in gen.HANDS:
        for argument in gen.ARGUMENTS:
            pattern = rf"^\| {workload} \| {seats} \| {cards} \| {argument} \|"
            assert any(re.match(pattern, row) for row in rows), pattern


def test_rewrite_replaces_only_the_block() -> None:
    gen = _script()
    text = f"before\n{gen.BEGIN}\nold\n{gen.END}\nafter\n"
    assert gen.rewrite(text, f"{gen.BEGIN}\nnew\n{gen.END}") == \
        f"before\n{gen.BEGIN}\nnew\n{gen.END}\nafter\n"
