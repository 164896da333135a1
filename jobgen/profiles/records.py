"""A validated profile as plain records: what `jobgen render` reads instead of the model.

The model's ~40 frozen dataclasses cost more to create at import than a render takes, and a
render only reads a profile that the cache already holds validated (see load.py). So the
render path turns the cached dict into `Record`s (dicts whose keys read as attributes, so
`profile.node.gpus.count` and `profile.references["UG"]` both work) and never imports
`jobgen.profiles.model`. The two values the model derives are defined here, once, for both.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:
    from typing import Any


def devices_per_node(profile: Any) -> int:
    """GPU devices a framework sees per node (GPUs x tiles or GCDs)."""
    gpus = profile.node.gpus
    return gpus.count * gpus.subdevices_per_gpu if gpus else 0


def device_kind(profile: Any) -> str:
    """torch's device type on this site: cuda (NVIDIA and AMD ROCm), xpu (Intel) or cpu."""
    gpus = profile.node.gpus
    if gpus is None:
        return "cpu"
    return "xpu" if gpus.vendor == "intel" else "cuda"


class Record(dict):
    """A read-only view of one validated mapping; keys read as attributes."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a profile record is read-only ({name})")


class ProfileRecord(Record):
    __slots__ = ()

    @property
    def devices_per_node(self) -> int:
        return devices_per_node(self)

    @property
    def device_kind(self) -> str:
        return device_kind(self)


def _convert(value: Any) -> Any:
    if isinstance(value, dict):
        return Record((k, _convert(v)) for k, v in value.items())
    if isinstance(value, list):
        return [_convert(v) for v in value]
    return value


def profile_record(data: dict[str, Any]) -> ProfileRecord:
    """The cached, validated profile dict as records (the model's field names and values)."""
    return ProfileRecord((k, _convert(v)) for k, v in data.items())
