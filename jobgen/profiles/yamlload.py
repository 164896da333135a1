"""YAML as jobgen reads it: PyYAML's safe loader, bounded, and strict about duplicate keys.

Profiles are input (shared through JOBGEN_PROFILE_PATH): 10,000 nested lists must not
exhaust Python's recursion (that traceback took `jobgen sites` down for every site), aliases
must not expand into millions of values, and a key written twice must not silently keep the
last value. Each problem is a `YAMLProblem` with the line it is on.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

MAX_DEPTH = 32  # nested mappings and lists; a profile needs about six
MAX_VALUES = 100_000  # scalars, lists and mappings once aliases are expanded
_MERGE = "tag:yaml.org,2002:merge"


class YAMLProblem(yaml.MarkedYAMLError):
    """A document PyYAML could read but jobgen refuses; `problem_mark` is where."""

    def __init__(self, problem: str, node_or_mark: Any) -> None:
        mark = getattr(node_or_mark, "start_mark", node_or_mark)
        super().__init__(problem=problem, problem_mark=mark)


class _Loader(yaml.SafeLoader):
    _depth = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise YAMLProblem(f"nested deeper than {MAX_DEPTH} levels",
                                  self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def get_single_node(self) -> Node | None:
        node = super().get_single_node()
        if node is not None:
            _measure(node, {})
        return node

    def construct_mapping(self, node: Node, deep: bool = False) -> dict[Any, Any]:
        if isinstance(node, MappingNode):
            _refuse_duplicates(self, node)
        return super().construct_mapping(node, deep=deep)


def _measure(node: Node, seen: dict[int, tuple[int, int] | None], depth: int = 1
             ) -> tuple[int, int]:
    """(values, height) of a node with every alias expanded; refuses cycles, depth, bombs."""
    known = seen.get(id(node), ())
    if known is None:
        raise YAMLProblem("an alias refers to a value that contains it", node)
    if not known:
        seen[id(node)] = None  # in progress
        children: list[Node] = []
        if isinstance(node, SequenceNode):
            children = list(node.value)
        elif isinstance(node, MappingNode):
            children = [n for pair in node.value for n in pair]
        measured = [_measure(child, seen, depth + 1) for child in children]
        known = (1 + sum(m[0] for m in measured), 1 + max((m[1] for m in measured), default=0))
        seen[id(node)] = known
    if depth + known[1] - 1 > MAX_DEPTH:
        raise YAMLProblem(f"nested deeper than {MAX_DEPTH} levels once aliases are expanded",
                          node)
    if known[0] > MAX_VALUES:
        raise YAMLProblem(f"more than {MAX_VALUES} values once aliases are expanded", node)
    return known


def _refuse_duplicates(loader: _Loader, node: MappingNode) -> None:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        if not isinstance(key_node, ScalarNode) or key_node.tag == _MERGE:
            continue  # merged keys (<<) may be overridden; that is what merging is for
        key = loader.construct_object(key_node)  # a scalar: hashable
        if key in seen:
            raise YAMLProblem(f"duplicate key {key!r} (first on line {seen[key]})", key_node)
        seen[key] = key_node.start_mark.line + 1


def load(text: str) -> Any:
    """One YAML document as Python data; YAMLError (YAMLProblem included) when refused."""
    loader = _Loader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()
