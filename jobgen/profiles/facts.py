"""The plan's sourced lines: every directive, module command and export carries its reason,
its public source, the layer it came from and, where no source confirmed it, why not."""

from __future__ import annotations

import re

from ..frozen import Frozen, replace
from ..shell import Expand, quote

_SCHEDULER_PREFIXES = ("SLURM_", "PBS_", "COBALT_", "LSB_", "LS_")


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
    make_dir: bool = False  # made once on the batch node before the launch, kept
    # Variables the value takes from the site's environment, comma-separated (with_site_refs)
    site_references: str = ""

    @property
    def make_dir_line(self) -> str:
        """`mkdir -p "$NAME"` for a directory the script makes and keeps ('' otherwise)."""
        return f'mkdir -p "${{{self.name}}}"' if self.make_dir else ""

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


def with_site_refs(env: tuple[EnvSetting, ...]) -> tuple[EnvSetting, ...]:
    """Each expanded value's references to variables neither the script sets nor the scheduler
    or the login provides (USER, HOME, SLURM_*, PBS_*, ...): a module or the system sets them,
    where shellcheck cannot see it (SC2153), so the template notes them."""
    assigned = {e.name for e in env if e.action != "unset"}
    out = []
    for e in env:
        names = re.findall(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", e.value or "") if e.expand else []
        refs = [n for n in dict.fromkeys(names) if n not in assigned | {"USER", "HOME"}
                and not n.startswith(_SCHEDULER_PREFIXES)]
        out.append(replace(e, site_references=", ".join(refs)) if refs else e)
    return tuple(out)
