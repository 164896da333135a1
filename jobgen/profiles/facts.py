"""The plan's sourced lines: every directive, module command and export carries its reason,
its public source, the layer it came from and, where no source confirmed it, why not."""

from __future__ import annotations

from ..frozen import Frozen
from ..shell import Expand, quote


class Fact(Frozen):
    """A line of the script (directive, module command, launcher flag) and why it is there."""

    text: str
    why: str
    source: str
    layer: str = "profile"
    unconfirmed: str | None = None


class EnvSetting(Frozen):
    """One environment change of the job script."""

    name: str
    value: str | None
    action: str
    expand: bool
    why: str
    source: str
    layer: str
    unconfirmed: str | None = None
    node_dir: bool = False  # a node-local directory: created on every node, removed at exit

    @property
    def literal_dollar(self) -> bool:
        return not self.expand and "$" in (self.value or "")

    @property
    def shell(self) -> str:
        """The one shell line for this setting (values quoted; expansions checked)."""
        if self.action == "unset":
            return f"unset {self.name}"
        value = quote(Expand(self.value or "") if self.expand else self.value or "")
        if self.action == "prepend":
            return f'export {self.name}={value}"${{{self.name}:+:${self.name}}}"'
        return f"export {self.name}={value}"
