"""`Frozen`: a read-only record with fields, what `@dataclass(frozen=True)` gives without its
import and class-creation cost. Every record on the render path (the request, the plan, the
placement slots, the escaping layer's words) is one."""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:
    from typing import Any, TypeVar

    FrozenT = TypeVar("FrozenT", bound="Frozen")


class Frozen:
    """A read-only record with fields: what `@dataclass(frozen=True)` gives, without its cost.

    A subclass's annotated names are its fields, in order after those of its bases; a class
    attribute of the same name is the field's default. Instances are built by position or
    keyword, compare equal and hash by class and values, print as `Name(field=value, ...)`,
    refuse attribute assignment, and run `__post_init__` (validation) when the class has one.
    @dataclass writes and compiles five methods for every class, about a millisecond each time
    on a busy login node; the render path defines twenty of these classes on every start, so
    it uses this one generic implementation instead (`replace` and `field_names` below stand
    in for dataclasses.replace and dataclasses.fields).
    """

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    _defaults: dict[str, Any] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = list(cls._fields)
        defaults = dict(cls._defaults)
        for name, annotation in cls.__dict__.get("__annotations__", {}).items():
            if str(annotation).startswith(("ClassVar", "typing.ClassVar")):
                continue
            if name not in names:
                names.append(name)
            if name in cls.__dict__:
                default = cls.__dict__[name]
                if isinstance(default, (list, dict, set)):
                    raise ValueError(f"mutable default {type(default).__name__} for field "
                                     f"{name} is not allowed: use a tuple or None")
                defaults[name] = default
            elif defaults:
                defaults.pop(name, None)
            if name not in defaults and any(n in defaults for n in names[:names.index(name)]):
                raise TypeError(f"non-default field {name!r} follows a default field")
        cls._fields, cls._defaults = tuple(names), defaults

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        names = self._fields
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__}() takes {len(names)} positional arguments "
                            f"but {len(args)} were given")
        values = dict(zip(names, args, strict=False))  # fewer args: defaults
        for name, value in kwargs.items():
            if name not in names:
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument "
                                f"{name!r}")
            if name in values:
                raise TypeError(f"{type(self).__name__}() got multiple values for argument "
                                f"{name!r}")
            values[name] = value
        for name in names:
            if name not in values:
                if name not in self._defaults:
                    raise TypeError(f"{type(self).__name__}() missing required argument: "
                                    f"{name!r}")
                values[name] = self._defaults[name]
            object.__setattr__(self, name, values[name])
        post_init = getattr(self, "__post_init__", None)
        if post_init is not None:
            post_init()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        pairs = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__qualname__}({pairs})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a frozen "
                             f"{type(self).__name__}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")


def replace(obj: FrozenT, **changes: Any) -> FrozenT:
    """A copy of `obj` with some fields changed (and checked again by __post_init__)."""
    return type(obj)(**{name: changes.pop(name, getattr(obj, name))
                        for name in obj._fields}, **changes)


def field_names(cls: type[Frozen]) -> tuple[str, ...]:
    return cls._fields
