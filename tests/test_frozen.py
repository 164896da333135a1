"""`frozen.Frozen`: the render path's frozen records behave as @dataclass(frozen=True) did."""

from __future__ import annotations

import pytest

from jobgen.errors import JobgenError
from jobgen.frozen import Frozen, field_names, replace
from jobgen.plan.build import Request
from jobgen.shell import Var


class Point(Frozen):
    """Two fields and a default."""

    x: int
    y: int
    label: str = "p"


class Labelled(Point):
    """A subclass adds fields after its base's."""

    note: str = ""


def test_fields_in_order_by_position_or_keyword_with_defaults():
    assert field_names(Point) == ("x", "y", "label")
    assert field_names(Labelled) == ("x", "y", "label", "note")
    p = Point(1, y=2)
    assert (p.x, p.y, p.label) == (1, 2, "p")
    assert repr(p) == "Point(x=1, y=2, label='p')"


@pytest.mark.parametrize(("args", "kwargs", "message"), [
    ((1,), {}, "missing required argument: 'y'"),
    ((1, 2, "a", "b"), {}, "takes 3 positional arguments but 4 were given"),
    ((1, 2), {"z": 3}, "unexpected keyword argument 'z'"),
    ((1, 2), {"x": 3}, "multiple values for argument 'x'"),
])
def test_wrong_arguments_are_type_errors(args, kwargs, message):
    with pytest.raises(TypeError, match=message):
        Point(*args, **kwargs)


def test_frozen_equal_by_class_and_values_and_hashable():
    p = Point(1, 2)
    with pytest.raises(AttributeError, match="frozen"):
        p.x = 3  # type: ignore[misc]
    with pytest.raises(AttributeError, match="frozen"):
        del p.x
    assert p == Point(1, 2) and hash(p) == hash(Point(1, 2)) and p != Point(1, 3)
    assert p != Labelled(1, 2) and p != (1, 2, "p")
    assert len({p, Point(1, 2)}) == 1


def test_replace_copies_with_changes_and_checks_again():
    req = Request(site="aurora", nodes=2)
    changed = replace(req, queue="debug")
    assert (changed.site, changed.nodes, changed.queue, req.queue) == ("aurora", 2, "debug", None)
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        replace(req, bogus=1)
    with pytest.raises(JobgenError, match="not a shell variable name"):
        replace(Var("OK"), name="not ok")  # __post_init__ runs on the copy too


def test_class_definition_mistakes_are_refused_as_dataclass_refuses_them():
    with pytest.raises(ValueError, match="mutable default list"):
        type("Bad", (Frozen,), {"__annotations__": {"xs": "list[int]"}, "xs": []})
    with pytest.raises(TypeError, match="non-default field 'y' follows a default field"):
        type("Bad", (Frozen,), {"__annotations__": {"x": "int", "y": "int"}, "x": 0})
