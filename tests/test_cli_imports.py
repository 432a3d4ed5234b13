"""The command line's modules import one another without a circle.

import-linter keeps the ``play`` route in layers (pyproject.toml); this test looks at
every module of :mod:`lodam_p2p.cli`, function-level imports included, so that a circle
anywhere in the command line (``a`` imports ``b`` inside a function, ``b`` imports ``a``
at the top) is caught with the modules that make it.
"""

from __future__ import annotations

import grimp

CLI = "lodam_p2p.cli"


def _cli_graph() -> dict[str, set[str]]:
    graph = grimp.build_graph("lodam_p2p")
    modules = {m for m in graph.modules if m.startswith(CLI + ".")}
    return {m: {i for i in graph.find_modules_directly_imported_by(m) if i in modules}
            for m in modules}


def find_circle(edges: dict[str, set[str]]) -> list[str]:
    """One circle of ``edges`` (its modules in order, the first repeated at the end), or
    an empty list when there is none."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := walk(nxt)):
                return found
        path.pop()
        state[node] = 2
        return []

    for start in sorted(edges):
        if start not in state and (found := walk(start)):
            return found
    return []


def test_find_circle_finds_one_and_only_one() -> None:
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_the_command_line_has_no_import_circle() -> None:
    edges = _cli_graph()
    assert f"{CLI}.cmd_play" in edges and f"{CLI}.play_lorum" in edges
    assert find_circle(edges) == []
