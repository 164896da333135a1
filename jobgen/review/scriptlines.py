"""Every line of a rendered script with what it is for, for `jobgen explain`.

The facts (directives, modules, exports, launcher flags) carry their own reason and source in
explain's other sections; the template's own lines (the shebang, `set -e`, `ulimit`, `cd`, the
node-count check, the traps and the signal forwarding, the wait for the launcher) are the
SKELETON below; any other line is explained by the comment the template writes above it in
its paragraph, or by the block (function, heredoc) it belongs to.
"""

from __future__ import annotations

import re
from typing import Any

_FORWARD = ("signal forwarding: the scheduler signals the batch shell (TERM at the walltime's "
            "end or on a cancel, the warning signal before it), which passes the signal to the "
            "launcher, so the ranks checkpoint and stop instead of being killed")
_WAIT = ("waits for the launcher: a forwarded signal interrupts `wait`, so it waits again "
         "until the launcher has exited, and keeps the launcher's exit status")
_WRAPPER = ("writes the per-rank wrapper the launcher starts on every rank: it sets the rank's "
            "variables and device, then execs the program")
_NODES = ("the node-count check: the plan's ranks, bindings and world size are for this many "
          "nodes, so a different allocation stops the job with one line before the launch")

_CHAIN = ("the chain hook, inert unless the job is a link of `jobgen chain` "
          "(JOBGEN_CHAIN_DIR set): a link ends at once when the training is finished, the "
          "chain was stopped or too many links in a row made no progress, and then cancels the "
          "later links (docs/chains-reference.md)")

# (the stripped line, as a regular expression) -> what it is for; first match wins
SKELETON: tuple[tuple[str, str], ...] = (
    (r"#!/bin/bash -l", "the interpreter: bash as a login shell, which reads the system "
     "profile that defines the `module` command"),
    (r"#!/bin/bash", "the interpreter: bash"),
    (r"set -e -o pipefail", "stop at the first command that fails (inside a pipeline too) "
     "instead of launching on a broken setup"),
    (r"ulimit -c 0", "no core files: thousands of ranks dumping core would fill the "
     "submit directory's filesystem"),
    (r'cd "\$\w+"', "run where the job was submitted from (the scheduler's variable): its "
     "files and outputs are there, wherever the scheduler starts the batch shell"),
    (r"JOBGEN_NODES=\d+", _NODES),
    (r"jobgen_found=.*", _NODES),
    (r"if \[ .* -ne \"\$JOBGEN_NODES\" \]; then", _NODES),
    (r'echo "jobgen: this plan is for \$JOBGEN_NODES nodes .*', _NODES),
    (r'JOBGEN_DIR=".*"', "the job's own directory, named by its job id: the rank wrapper and "
     "the copy of the bundled apps"),
    (r'mkdir -p "\$JOBGEN_DIR"', "the job's own directory, named by its job id"),
    (r"jobgen_cleanup\(\) \{", "removes the job's directory when the batch shell exits"),
    (r"trap jobgen_cleanup EXIT", "removes the job's directory when the batch shell exits, "
     "whatever the exit"),
    (r"jobgen_chain_ids=\(\)", _CHAIN),
    (r'if \[ -n "\$\{JOBGEN_CHAIN_DIR:-\}" \]; then', _CHAIN),
    (r"jobgen_chain_end\(\) \{", "a link of a chain, at its end (the exit trap): writes "
     "link-K.json (exit status, checkpoint steps before and after) and stops the chain when "
     "the training is finished or the stall cap is reached"),
    (r'JOBGEN_WRAPPER=".*"', _WRAPPER),
    (r"cat > \"\$JOBGEN_WRAPPER\" <<'JOBGEN_EOF'", _WRAPPER),
    (r"JOBGEN_EOF", "ends the per-rank wrapper's text"),
    (r'chmod \+x "\$JOBGEN_WRAPPER"', "makes the per-rank wrapper executable"),
    (r"jobgen_preflight\(\) \{", "the preflight: runs one check once, before the launch; "
     "when it fails, prints the check's last line and exits 78 (no rank started)"),
    (r'jobgen_signalled=""', _FORWARD),
    (r"jobgen_forward\(\) \{", _FORWARD),
    (r"trap 'jobgen_forward (\w+)' \1", _FORWARD),
    (r"jobgen_launch=\$!", "the launcher's process id, for the signal forwarding and the wait"),
    (r"jobgen_status=0", _WAIT),
    (r"while :; do", _WAIT),
    (r'wait "\$jobgen_launch" .*', _WAIT),
    (r'kill -0 "\$jobgen_launch" .*', _WAIT),
    (r'\[ -z "\$jobgen_signalled" \] .*', "says which forwarded signal stopped the run"),
    (r'exit "\$jobgen_status"', "the job's exit status is the launcher's (the ranks')"),
    (r'exec "\$@"', "the rank wrapper's last step: becomes the program (same process, so "
     "signals reach it)"),
)
_SKELETON = tuple((re.compile(pattern), why) for pattern, why in SKELETON)
_CLOSERS = {"fi", "done", "esac", "}", ";;", "else", "then"}
_DIRECTIVE = re.compile(r"#(PBS|SBATCH|BSUB|COBALT)\b")
_OPENS = re.compile(r"^(\w+)\(\) \{$")


def script_lines(text: str) -> list[dict[str, Any]]:
    """Each non-blank line: its number, its text, what it is for and where that comes from
    (skeleton, comment, directive, block, or none)."""
    out: list[dict[str, Any]] = []
    heredoc: tuple[str, int] | None = None  # (end word, its line)
    function: tuple[str, int] | None = None
    paragraph: list[str] = []  # the comments of the current paragraph (since a blank line)
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.strip()
        if not stripped:
            paragraph = []
            continue
        why, kind = _skeleton(stripped)
        if why is None:
            if _DIRECTIVE.match(stripped):
                why, kind = "a scheduler directive: see the directives above", "directive"
            elif stripped.startswith("#"):
                why, kind = stripped.lstrip("#").strip() or "a separator", "comment"
                paragraph.append(why)
            elif heredoc is not None:
                why, kind = f"a line of the per-rank wrapper written at line {heredoc[1]}", "block"
            elif stripped in _CLOSERS or stripped.startswith(("*)", ";;")):
                why, kind = "ends the block above", "block"
            elif function is not None:
                why, kind = f"part of {function[0]}() (line {function[1]})", "block"
            elif paragraph:
                why, kind = paragraph[-1], "comment"
            else:
                why, kind = None, "none"
        if heredoc is not None and stripped == heredoc[0]:
            heredoc = None
        elif heredoc is None and (found := re.search(r"<<'(\w+)'$", stripped)):
            heredoc = (found.group(1), number)
        if (opened := _OPENS.match(stripped)) and heredoc is None:
            function = (opened.group(1), number)
        elif stripped == "}" and heredoc is None:
            function = None
        out.append({"line": number, "text": line, "why": why, "from": kind})
    return out


def _skeleton(stripped: str) -> tuple[str | None, str]:
    for pattern, why in _SKELETON:
        if pattern.fullmatch(stripped):
            return why, "skeleton"
    return None, "none"
