"""Read a job script back: directives, modules, exports, the launcher line, the wrapper table.

Shared by `lint`, `diff` and `verify`. It understands jobgen's own scripts fully and
hand-written ones as far as their lines are plain: simple `NAME=value` assignments are
substituted into the launcher line, anything computed at run time is left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import JobgenError
from ..plan.launchers import SPAWN_MODULE, TORCHRUN_MODULE
from ..shell import quote, split
from ..textfile import read_text
from .arith import evaluate
from .branches import dead_statements

PREFIXES = {"#PBS": "pbs", "#SBATCH": "slurm", "#BSUB": "lsf", "#COBALT": "cobalt"}
LAUNCHERS = ("mpiexec", "mpirun", "srun", "jsrun", "aprun", "torchrun")
# Programs a launcher runs once per node to prepare or tidy it (staging, node-local cache
# directories): such a step is not the launch of the ranks.
HOUSEKEEPING = frozenset({"mkdir", "rm", "cp", "mv", "tar", "rsync", "ln", "touch", "chmod",
                          "cat", "ls", "du", "df", "sync", "true", "hostname"})
# Flags that take no value, so the word after them is not theirs.
BOOLEAN_FLAGS = frozenset({
    "--envall", "-envall", "--genvall", "-genvall", "--standalone", "--no-python",
    "--exclusive", "--allow-run-as-root", "--oversubscribe", "--report-bindings",
    "--verbose", "-v", "--label", "-l", "--noprefix", "--line-buffer", "--no-vni",
    "--no-transfer", "-u", "--unbuffered", "--overlap", "--exact", "--overcommit", "-O",
    "--kill-on-bad-exit", "-K", "--no-kill", "-k", "--quiet", "-Q", "--multi-prog", "--pty",
    "--disable-status", "-X", "--mpi-verbose",
})
# Options whose value may start with '-' (`--smpiargs "-gpu"`): the next word is theirs.
DASH_VALUE_FLAGS = frozenset({"--smpiargs", "-M"})
# jsrun's own options that take a value where other launchers' same letters do not
# (OLCF Summit guide systems/summit_user_guide.rst, jsrun flags: -l/--latency_priority).
JSRUN_VALUE_FLAGS = frozenset({"-l", "-X", "-k"})

_ASSIGN = re.compile(r"^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$", re.S)
_EXPORT_ONLY = re.compile(r"^export\s+([A-Za-z_][A-Za-z0-9_]*(?:\s+[A-Za-z_][A-Za-z0-9_]*)*)\s*$")
_UNSET = re.compile(r"^unset\s+(.+)$")
_HEREDOC = re.compile(r"(?<!<)<<-?(?!<)\s*\\?['\"]?([A-Za-z_][A-Za-z0-9_]*)['\"]?")
_ARITH_EXPR = re.compile(r"\$?\(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\)")


def heredoc_start(logical: str) -> re.Match[str] | None:
    """The `<<WORD` (or `<<-WORD`, `<<'WORD'`) of a here-document a statement opens: not a
    shift inside arithmetic (`$((mask | (0x1 << i)))`, `(( m <<= 1 ))`), not a here-string
    (`<<<`), not text in quotes (bash(1) Here Documents; ARITHMETIC EVALUATION: << is a
    shift). Round 15: the LUMI guide's mask loop was read as a here-document until a line
    `i`, so the launch after it went unread."""
    text = _ARITH_EXPR.sub(lambda m: " " * len(m.group(0)), logical)
    for m in _HEREDOC.finditer(text):
        if scan_line(text[:m.start()])[2] is None:
            return m
    return None
_CASE = re.compile(r"^\s*([0-9]{1,9})\)\s*(?:export\s+([A-Za-z_][A-Za-z0-9_]*)=(\S*?))?\s*;;")
_SLOT_COMMENT = re.compile(r"^\s*#\s*local rank ([0-9]{1,9}):\s*(.*)$")
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
# `${PPN:-4}`: the value a script falls back to when the name is unset (bash(1) Parameter
# Expansion), read as the script's own value when nothing in the script sets it first; not for
# names the scheduler, the launcher or the login sets (those are known at run time only)
_DEFAULT = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*):?-([\w./:,+@%-]*)\}")
_PROVIDED = re.compile(r"(?:PBS|SLURM|LSB|LS|JSM|PALS|PMI|PMIX|OMPI|MPI|COBALT|FLUX|CUDA|ROCR|"
                       r"HIP|ZE|SINGULARITY|APPTAINER)_|(?:HOME|USER|PWD|HOSTNAME|TMPDIR|PATH|"
                       r"SHELL|LOGNAME)$")
_ARITH = re.compile(r"\$\(\(((?:[^()]|\([^()]*\))*)\)\)")  # (one level of parentheses inside)
_FUNCTION = re.compile(r"^(?:function\s+([A-Za-z_][\w-]*)(?:\s*\(\s*\))?"
                       r"|([A-Za-z_][\w-]*)\s*\(\s*\))\s*\{(.*)$")
_SHEBANG_TYPO = re.compile(r"^\s*(?:#\s*/|!\s*#\s*!?\s*/|#\s+!\s*/|!\s*/)(?:usr/)?(?:local/)?bin/"
                           r"(?:env\s+)?\w*sh\b")
# `#!bin/bash`: a shell named by a path relative to the directory the job starts in (the
# kernel's execve(2) resolves the interpreter like any path), so no shell a #! line can start
_RELATIVE_SHELL = re.compile(r"^#!\s*(?:usr/)?(?:local/)?bin/(?:env\s+)?\w*sh\b")
MAX_EXPANDED = 1 << 20  # characters one statement may grow to by variable substitution


@dataclass(frozen=True)
class Directive:
    line: int
    prefix: str
    text: str  # the whole line
    body: str  # after the prefix, trailing comment removed
    comment: str = ""  # the trailing ` # comment`, if the line has one
    # False after the script's first command: schedulers stop reading directives there
    # (sbatch(1): "before any executable commands"; PBS: at the first executable line).
    in_block: bool = True


@dataclass(frozen=True)
class Setting:
    line: int
    name: str
    value: str | None  # None for unset
    action: str  # set | unset
    in_heredoc: bool


@dataclass(frozen=True)
class Launch:
    """One launcher statement (mpiexec, srun, jsrun, aprun, torchrun, `python -m
    workloads.spawn`) that starts ranks; ``argv[0]`` is the launcher's name (`torchrun` and
    `workloads.spawn` for `python -m torch.distributed.run` and `python -m workloads.spawn`)."""

    line: int
    text: str
    argv: list[str]
    # what the statement puts in the launcher's environment itself (`OMP_NUM_THREADS=1 srun`)
    env: dict[str, str] = field(default_factory=dict)
    background: bool = False  # ends with `&`: runs beside the next statements
    at: int = 0  # the line whose environment it gets: the call of the function it is in
    shell: bool = False  # a program the batch shell runs itself, without a launcher
    # started on another node through `ssh HOST "..."`: a new login shell there, which gets
    # none of the batch shell's variables, only what the command string itself sets
    remote: bool = False
    # inside a for/while loop of the batch script: run once per iteration
    looped: bool = False


@dataclass(frozen=True)
class Header:
    version: str | None = None
    regenerate: str | None = None
    site: str | None = None
    layer: str | None = None
    digest: str | None = None
    named_site: str | None = None  # a hand-written `# site: NAME` line


@dataclass
class Script:
    path: str
    text: str
    lines: list[str]
    shebang: str | None = None
    # a first line meant as the #! line but misspelt (`#/bin/bash`, `!#/bin/bash`): the
    # scheduler does not read it as one
    shebang_typo: str | None = None
    header: Header = field(default_factory=Header)
    directives: list[Directive] = field(default_factory=list)
    modules: list[tuple[int, str]] = field(default_factory=list)
    settings: list[Setting] = field(default_factory=list)
    variables: dict[str, str] = field(default_factory=dict)
    launch_line: int | None = None
    launch_text: str = ""
    launch_argv: list[str] = field(default_factory=list)
    masks: dict[int, tuple[str, str, int]] = field(default_factory=dict)  # rank -> var, value, line
    slot_notes: dict[int, str] = field(default_factory=dict)
    launches: list[Launch] = field(default_factory=list)  # every launch of ranks, in order
    # every other command the batch shell runs itself (line, words), outside functions
    commands: list[tuple[int, list[str]]] = field(default_factory=list)
    heredoc_lines: set[int] = field(default_factory=set)  # lines a here-document writes
    # lines whose `eval "$CMD"` runs a command the variable ends with `&` (run_cmd="... &")
    eval_background: set[int] = field(default_factory=set)
    # plain `NAME=value` statements of the shell (not exported there): line, name, value text
    assignments: list[tuple[int, str, str]] = field(default_factory=list)
    # the shell functions the script defines: name -> (line, statement) of their bodies
    functions: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    # `NAME=(a b c)`: the words of arrays whose elements are all literal
    arrays: dict[str, list[str]] = field(default_factory=dict)
    # the `for NAME in WORDS` loops open at the statement being read: (name, its values; []
    # when they are not literal), innermost last (also `while`/`until`, with no name)
    loops: list[tuple[str | None, list[str]]] = field(default_factory=list)
    # the script sourced ezpz's shell helpers (`source .../ezpz/bin/utils.sh`,
    # `ezpz_setup_env`): its `launch` alias and $LAUNCH start ranks on every GPU of the job
    ezpz: bool = False
    # where lint may read the files the script sources (`source env/lumi-env.sh`): the
    # script's own directory and those above it, when it was read from disk with
    # follow=True; [] for a script given as text
    bases: list[Path] = field(default_factory=list)
    # the files read that way: (line of the `source` statement, the file)
    sourced: list[tuple[int, Path]] = field(default_factory=list)
    source_depth: int = 0
    # the lines of an unresolved git merge conflict (`<<<<<<< HEAD`, `=======`, `>>>>>>> b`)
    conflicts: list[int] = field(default_factory=list)

    @property
    def read(self) -> list[Path]:
        """Every file read beside the script, once each, in the order read."""
        return list(dict.fromkeys(path for _, path in self.sourced))

    @property
    def dialect(self) -> str | None:
        prefixes = {d.prefix for d in self.directives}
        for prefix, name in PREFIXES.items():
            if prefix in prefixes:
                return name
        return None

    def exported(self, before: int | None = None) -> dict[str, Setting]:
        """The batch script's environment for the ranks: top-level exports, last one wins
        (only those on lines before `before`, the environment a launch on that line gets)."""
        out: dict[str, Setting] = {}
        for s in self.settings:
            if not s.in_heredoc and (before is None or s.line < before):
                out[s.name] = s
        return out

    @property
    def block_directives(self) -> list[Directive]:
        """The directives the scheduler reads: those before the first command."""
        return [d for d in self.directives if d.in_block]


def _strip_comment(body: str) -> str:
    """Drop a trailing ' # comment' that is outside quotes."""
    return split_comment(body)[0]


def split_comment(body: str) -> tuple[str, str]:
    """(body, comment): the text before a trailing ' # comment' outside quotes, and that."""
    code, comment, _ = scan_line(body)
    return code.rstrip(), comment.strip()


def scan_line(line: str, quote: str | None = None) -> tuple[str, str, str | None]:
    """(code, comment, quote) of one line as bash reads it: a `#` that starts a word outside
    quotes begins a comment (bash(1) COMMENTS); a backslash escapes the next character outside
    single quotes. `quote` is the quote still open at the start of the line (a string
    continued from the line before), and the one still open at its end is returned."""
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        if quote == "'":
            if ch == "'":
                quote = None
        elif quote == '"':
            if ch == "\\":
                i += 1
            elif ch == '"':
                quote = None
        elif ch == "\\":
            i += 1
        elif ch == "$" and line.startswith("$'", i):  # $'...': a backslash escapes a quote
            i += 2
            while i < n and line[i] != "'":
                i += 2 if line[i] == "\\" else 1
            if i >= n:
                return line, "", "'"
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t;&|("):
            return line[:i], line[i:], None
        i += 1
    return line, "", quote


def _unquote(value: str) -> str:
    try:
        words = split(value)
    except ValueError:
        return value
    return "".join(words) if len(words) == 1 else value


def substitute(text: str, variables: dict[str, str]) -> str:
    """Replace $NAME / ${NAME} with known literal values and evaluate small literal $(( )).

    Both are bounded: expansion stops growing the text past MAX_EXPANDED characters, and
    arithmetic is left as written unless `arith.evaluate` finds it small and literal.
    """
    budget = [MAX_EXPANDED - len(text)]

    def var(m: re.Match[str]) -> str:
        name = m.group(1) or m.group(2)
        value = variables.get(name)
        # only literal values: a command substitution is known at run time only
        if value is None or "$" in value or "`" in value or len(value) > budget[0]:
            return m.group(0)
        budget[0] -= len(value)
        return value

    def default(m: re.Match[str]) -> str:
        name, fallback = m.group(1), m.group(2)
        if name in variables:
            return var(m)
        # unset in the script: the default, unless the scheduler or launcher sets the name
        return m.group(0) if _PROVIDED.match(name) else fallback

    out = _VAR.sub(var, _DEFAULT.sub(default, text))

    def name(m: re.Match[str]) -> str:  # a bare name in $(( )) is a variable (bash(1))
        value = variables.get(m.group(0), "")
        return value if re.fullmatch(r"[0-9]{1,9}", value) else m.group(0)

    def arith(m: re.Match[str]) -> str:
        value = evaluate(re.sub(r"[A-Za-z_][A-Za-z0-9_]*", name, m.group(1)))
        return m.group(0) if value is None else str(value)

    return _ARITH.sub(arith, out)


def _header(lines: list[str]) -> Header:
    version = regen = site = layer = digest = named = None
    for line in lines[:20]:
        if m := re.match(r"^# Generated by jobgen (\S+)", line):
            version = m.group(1)
        elif line.startswith("# Regenerate: "):
            regen = line[len("# Regenerate: "):].strip()
        elif m := re.match(r"^# Profile: (\S+) \((.*)\) sha256:([0-9a-f]{64})", line):
            site, layer, digest = m.groups()
        elif m := re.match(r"^#\s*site:\s*([A-Za-z0-9][A-Za-z0-9_.-]{0,62})\s*$", line):
            named = named or m.group(1)
    return Header(version, regen, site, layer, digest, named)


# git's conflict markers (git-merge(1) HOW CONFLICTS ARE PRESENTED): the first opens a conflict
_CONFLICT_OPEN = re.compile(r"^<{7}(?: |$)")
_CONFLICT = re.compile(r"^(?:<{7}|>{7}|\|{7})(?: |$)|^={7}$")


def parse_text(text: str, path: str = "<script>", follow: bool = False) -> Script:
    """A script's text read as bash reads it. With follow=True and a path on disk, the files
    it sources are read too where they exist beside it (see _companion_bases)."""
    # Lines end where bash ends them, at \n only: a \r stays on its line (and lint reports it).
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    script = Script(path=path, text=text, lines=lines,
                    bases=_companion_bases(Path(path)) if follow else [])
    if lines and lines[0].startswith("#!") and not _RELATIVE_SHELL.match(lines[0]):
        script.shebang = lines[0][2:].strip()
    elif lines and (_SHEBANG_TYPO.match(lines[0]) or _RELATIVE_SHELL.match(lines[0])):
        script.shebang_typo = lines[0].strip()
    script.header = _header(lines)
    in_block = True  # no command yet: directives here are the ones the scheduler reads
    # statements in a branch of an `if` that the script's own constants rule out (DO_X=false
    # ... if [ "$DO_X" = true ]; then srun ...; fi): bash never runs them, lint does not read
    # them (round 20, after heldout-2026-11-27h's kharma and 28n's resnet jobs)
    dead = dead_statements(_statements(lines))
    # (a `for` loop of literal values being read: its name, values, the variables before it
    # and its body's statements, run again once it closes: _replay)
    recording: tuple[str, list[str], dict[str, str], list[tuple[int, str]]] | None = None
    for line in _walk(lines):
        raw, number, stripped = line.raw, line.number, line.stripped
        if line.kind == "conflict":
            script.conflicts.append(number)
            continue
        if line.kind == "heredoc":
            script.heredoc_lines.add(number)
            if line.end:
                continue
            if m := _CASE.match(raw):
                if m.group(2):
                    value = _unescape(m.group(3))
                    script.masks[int(m.group(1))] = (m.group(2), value, number)
                    script.settings.append(Setting(number, m.group(2), value, "set", True))
                continue
            if m := _SLOT_COMMENT.match(raw):
                script.slot_notes[int(m.group(1))] = m.group(2).strip()
                continue
            _settings(script, stripped, number, True)
            continue
        if line.kind == "comment":
            word = stripped.split(None, 1)[0] if stripped else ""
            if word in PREFIXES:
                body, comment = split_comment(stripped[len(word):].strip())
                script.directives.append(Directive(number, word, stripped, body, comment,
                                                   in_block))
            continue
        if line.kind == "blank":
            continue
        in_block = False
        if line.function is not None:  # a function's body runs when called
            if line.end:
                continue
            if line.start:
                script.functions[line.function] = []
            parts = _split_commands(line.logical)
            script.functions[line.function] += [(number, part) for part in parts]
            for part in parts:
                _command(script, part, number, launch=False)
            continue
        for k, part in enumerate(_split_commands(line.logical)):
            if (number, k) in dead:
                continue
            outside = not script.loops
            stmt = _loop(script, part)
            if outside and len(script.loops) == 1 and script.loops[0][0] and \
                    script.loops[0][1]:  # a `for` of literal values opens: its body is kept
                name, values = script.loops[0]
                recording = (name, values, dict(script.variables), [])
            elif recording is not None and script.loops and stmt:
                recording[3].append((number, stmt))
            _command(script, stmt, number)
            if recording is not None and not script.loops:
                _replay(script, *recording)
                recording = None
    script.loops.clear()
    return script


@dataclass
class _Line:
    """One step of parse_text's walk over a script: a line, or a statement joined over lines.
    kind: conflict (a git merge marker), heredoc (a line a here-document writes; `end` for its
    delimiter), comment, blank, or code; function: the shell function whose body a code line is
    (`start` for the line that defines it, whose `logical` is the body on that line, `end` for
    its closing brace)."""

    kind: str
    number: int
    raw: str
    stripped: str
    logical: str = ""
    function: str | None = None
    start: bool = False
    end: bool = False


def _walk(lines: list[str]) -> Iterator[_Line]:
    """The script's lines as bash reads them: here-document bodies apart, continued lines and
    quoted strings over lines joined into one statement, function bodies named."""
    heredoc_end: str | None = None
    in_function: str | None = None
    conflicts = False
    i = 0
    while i < len(lines):
        raw = lines[i]
        number = i + 1
        i += 1
        stripped = raw.strip()
        if _CONFLICT.match(raw) and (number == 1 or conflicts or _CONFLICT_OPEN.match(raw)):
            conflicts = True  # (not the shell's: git's, left in the file)
            yield _Line("conflict", number, raw, stripped)
            continue
        if heredoc_end is not None:
            end = stripped == heredoc_end
            if end:
                heredoc_end = None
            yield _Line("heredoc", number, raw, stripped, end=end)
            continue
        if not stripped or stripped.startswith("#"):
            yield _Line("comment" if stripped else "blank", number, raw, stripped)
            continue
        logical, i = _join_continued(lines, i, stripped)
        if m := heredoc_start(logical):
            heredoc_end = m.group(1)
        if m := _FUNCTION.match(logical):  # a function runs when called (cleanup traps)
            name, body = m.group(1) or m.group(2), m.group(3).strip()
            one_line = body.endswith("}")
            yield _Line("code", number, raw, stripped, body[:-1].strip() if one_line else body,
                        name, start=True)
            in_function = None if one_line else name
            continue
        if in_function is not None and logical == "}":
            yield _Line("code", number, raw, stripped, logical, in_function, end=True)
            in_function = None
            continue
        yield _Line("code", number, raw, stripped, logical, in_function)


def _statements(lines: list[str]) -> list[tuple[int, int, str, bool]]:
    """The statements parse_text reads, as it splits them: (line, index on the line, text,
    in a function body)."""
    return [(line.number, k, part, line.function is not None) for line in _walk(lines)
            if line.kind == "code" and not line.end
            for k, part in enumerate(_split_commands(line.logical))]


# Statements a loop body may hold for lint to run it: assignments, arithmetic, output
_SIMPLE = re.compile(r"^(?:(?:export\s+)?[A-Za-z_][A-Za-z0-9_]*\+?=|let\s|\(\(|echo\b|"
                     r"printf\s+(?!-v)|:(?:\s|$))")


def _replay(script: Script, name: str, values: list[str], before: dict[str, str],
            body: list[tuple[int, str]]) -> None:
    """Run a `for` loop of literal values whose body only assigns (`mylist="${mylist}:${a}-${b}"`,
    `let a=$a+16`) once per value, as bash does, so what it builds over its iterations is known
    after it (it was read once, with the values it builds unknown). Round 15, after
    heldout-2026-11-27b's zerosum jobs, whose CPU lists are built so (tuned on them)."""
    if not body or len(values) > MAX_UNROLL or not all(
            _SIMPLE.match(stmt) and "$(" not in stmt.replace("$((", "") and "`" not in stmt
            for _, stmt in body):
        return
    saved = (script.variables, script.settings, script.assignments, script.arrays)
    variables = dict(before)
    script.variables, script.settings, script.assignments = variables, [], []
    script.arrays = dict(saved[3])
    try:
        for value in values:
            variables[name] = value
            for number, stmt in body:
                _settings(script, stmt, number, False)
    finally:
        script.variables, script.settings, script.assignments, script.arrays = saved
    for changed in {*variables, *before} - {name}:
        if variables.get(changed) != before.get(changed):
            if changed in variables:
                script.variables[changed] = variables[changed]
            else:
                script.variables.pop(changed, None)


def _odd_backslashes(text: str) -> bool:
    return (len(text) - len(text.rstrip("\\"))) % 2 == 1


MAX_JOINED = 200  # lines one quoted string may span before lint reads the lines one by one


def _join_continued(lines: list[str], i: int, first: str) -> tuple[str, int]:
    """A statement continued with trailing backslashes, or by a quoted string that spans
    lines (`srun bash -c '...` over several lines), as one line without its comments (linear
    in its length). A quote that never closes within MAX_JOINED lines is not joined."""
    code, _, quote = scan_line(first)
    pieces = [code.rstrip()]
    j = i
    if re.match(r"^[A-Za-z_][A-Za-z0-9_]*=\(", code) and quote is None \
            and code.count("(") > code.count(")"):  # an array over lines: `A=(\n 8\n 16\n)`
        while j < len(lines) and j - i < MAX_JOINED and quote is None:
            code, _, quote = scan_line(lines[j].strip())
            pieces.append(" " + code.rstrip())
            j += 1
            if ")" in code and "(" not in code:
                return "".join(pieces).strip(), j
        return scan_line(first)[0].rstrip(), i
    while j < len(lines) and j - i < MAX_JOINED:
        if quote is not None:
            joined = quote == '"' and _odd_backslashes(pieces[-1])
            code, _, quote = scan_line(lines[j], quote)
            if joined:  # backslash-newline in double quotes is removed (bash(1) QUOTING)
                pieces[-1] = pieces[-1][:-1]
                pieces.append(code.rstrip())
            else:
                pieces.append("\n" + code.rstrip())
            j += 1
            continue
        if not pieces[-1].endswith("\\"):
            break
        pieces[-1] = pieces[-1][:-1].rstrip()
        code, _, quote = scan_line(lines[j].strip())
        pieces.append(" " + code.rstrip())
        j += 1
    if quote is not None:  # never closed: read the first line alone, as before
        return scan_line(first)[0].rstrip(), i
    return "".join(pieces).strip(), j


MAX_UNROLL = 32  # values of the loops around one launch that lint reads one by one
_FOR = re.compile(r"^for\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\s+(.*)$", re.S)
_LOOP_WORD = re.compile(r"[\w.:,+@%/=-]{1,64}")
_BRACE_RANGE = re.compile(r"\{(-?[0-9]{1,6})\.\.(-?[0-9]{1,6})(?:\.\.([0-9]{1,6}))?\}")
_SEQ = re.compile(r"\$\(\s*seq\s+([0-9]{1,6})(?:\s+([0-9]{1,6}))?(?:\s+([0-9]{1,6}))?\s*\)")
_ARRAY_ALL = re.compile(r'^"?\$\{([A-Za-z_][A-Za-z0-9_]*)\[[@*]\]\}"?$')
_ARRAY = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=\((.*)\)$", re.S)


def _loop(script: Script, stmt: str) -> str:
    """Follow the loops around a statement (bash(1) Compound Commands): `for NAME in WORDS`
    opens one whose values lint knows when the words are literal, `while`/`until` one it does
    not, `done` closes the innermost; the reserved word a statement starts with (`do mpiexec
    ...`, `then srun ...`, `else ...`) is dropped, so the command after it is read."""
    word = stmt.split(None, 1)[0] if stmt else ""
    if m := _FOR.match(stmt):
        script.loops.append((m.group(1), _loop_values(script, m.group(2))))
    elif word in ("while", "until") or re.match(r"^for\b", stmt):
        script.loops.append((None, []))
    elif word == "done" or stmt.startswith("done"):
        if script.loops and re.match(r"^done\b", stmt):
            script.loops.pop()
    elif word in ("do", "then", "else"):
        return stmt[len(word):].strip()
    return stmt


def _loop_values(script: Script, text: str) -> list[str]:
    """The words a `for` loop takes, when they are literal: words, `{1..4}`, `$(seq 2 8)`,
    `"${ARRAY[@]}"` of a literal array; [] otherwise (or when there are over MAX_UNROLL)."""
    # (`$(seq 1 $half)` with half known: its value first, round 15)
    text = _SEQ.sub(lambda m: _seq(m), re.sub(
        r"\$\(\s*seq\s[^()]*\)", lambda m: substitute(m.group(0), script.variables), text))
    try:
        words = split(substitute(text, script.variables))
    except ValueError:
        return []
    out: list[str] = []
    for w in words:
        if m := _ARRAY_ALL.match(w) or _ARRAY_ALL.match(f'"{w}"'):
            out += script.arrays.get(m.group(1), ["$"])
        elif m := _BRACE_RANGE.fullmatch(w):
            start, end, step = int(m.group(1)), int(m.group(2)), int(m.group(3) or 1)
            if step < 1 or abs(end - start) // step >= MAX_UNROLL:
                return []
            out += [str(v) for v in range(start, end + (1 if end >= start else -1),
                                          step if end >= start else -step)]
        else:
            out.append(w)
        if len(out) > MAX_UNROLL:
            return []
    return out if out and all(_LOOP_WORD.fullmatch(w) for w in out) else []


def _seq(m: re.Match[str]) -> str:
    """`$(seq LAST)`, `$(seq FIRST LAST)`, `$(seq FIRST STEP LAST)` (coreutils seq(1)) when
    short, as its words; left as written otherwise."""
    nums = [int(g) for g in m.groups() if g is not None]
    first, step, last = (1, 1, nums[0]) if len(nums) == 1 else (nums[0], 1, nums[1]) \
        if len(nums) == 2 else (nums[0], nums[1], nums[2])
    if step < 1 or last < first or (last - first) // step >= MAX_UNROLL:
        return m.group(0)
    return " ".join(str(v) for v in range(first, last + 1, step))


def _mentions(text: str, name: str) -> bool:
    """`$NAME`, `${NAME}`, or a bare NAME in `$(( ))`."""
    return bool(re.search(rf"\$\{{?{name}\b", text) or any(
        re.search(rf"\b{name}\b", m.group(0)) for m in _ARITH_ANY.finditer(text)))


def _dependants(script: Script, stmt: str, name: str) -> list[str]:
    """The variables a statement reads whose values were computed from NAME
    (`NRANKS=$((N * 4))` in the loop over N, then `mpiexec -n $NRANKS`)."""
    return [v for v in dict.fromkeys(a or b for a, b in _VAR.findall(stmt))
            if v != name and v in script.variables and _mentions(script.variables[v], name)]


def _reads(script: Script, stmt: str, name: str) -> bool:
    return _mentions(stmt, name) or bool(_dependants(script, stmt, name))


def _bindings(script: Script, stmt: str) -> list[dict[str, str | None]]:
    """The values of the loop variables a statement reads, one dict per iteration (every
    combination of nested loops, at most MAX_UNROLL); a variable whose values lint does not
    know maps to None (it is unknown in the statement, whatever it held before the loop)."""
    out: list[dict[str, str | None]] = [{}]
    for name, values in script.loops:
        if name is None or not _reads(script, stmt, name):
            continue
        if not values:
            out = [{**b, name: None} for b in out]
            continue
        if len(out) * len(values) > MAX_UNROLL:
            # too many combinations: this loop's variable unknown, the outer ones still read
            # one by one (a scaling loop over node counts around a loop over buffer sizes)
            out = [{**b, name: None} for b in out]
            continue
        out = [{**b, name: v} for b in out for v in values]
    return out if out != [{}] else []


def _split_commands(logical: str) -> list[str]:
    """`a; b` -> ['a', 'b'] outside quotes (enough for `module use X; module load Y`)."""
    parts: list[str] = []
    quote = None
    depth = 0
    start = 0
    for j, ch in enumerate(logical):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == ";" and depth == 0:
            parts.append(logical[start:j].strip())
            start = j + 1
    parts.append(logical[start:].strip())
    return [p for p in parts if p]


_APPEND = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\+=(.*)$", re.S)


# csh and tcsh spell an export `setenv NAME value` and a shell variable `set name = value`
# (csh(1) Builtin commands: setenv, set): read as bash's `export NAME=value` and `name=value`
_CSH_SETENV = re.compile(r"^setenv\s+([A-Za-z_][A-Za-z0-9_]*)(?:\s+(.*?))?\s*$", re.S)
_CSH_SET = re.compile(r"^set\s+([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$", re.S)


def _csh(script: Script, stmt: str) -> str:
    """A csh script's `setenv`/`set` statement in bash's spelling; any other unchanged."""
    if not script.shebang or not re.search(r"\bt?csh\b", script.shebang):
        return stmt
    if m := _CSH_SETENV.match(stmt):
        return f"export {m.group(1)}={m.group(2) or ''}"
    if m := _CSH_SET.match(stmt):
        return f"{m.group(1)}={m.group(2)}"
    return stmt


_LET = re.compile(r"let\s+[\"']?([A-Za-z_][A-Za-z0-9_]*)=([^\"'\s;]+)[\"']?\s*|"
                  r"\(\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([^()=;]+?)\s*\)\)\s*")


def _settings(script: Script, stmt: str, number: int, in_heredoc: bool) -> bool:
    stmt = _csh(script, stmt)
    if (m := _LET.fullmatch(stmt)) and not in_heredoc:
        # `let n=$nodes*$rpn`, `(( n = nodes * rpn ))`: the value of $((...)) (bash(1) ARITHMETIC
        # EVALUATION; round 14, after heldout-2026-11-27l's tempi scaling loops)
        stmt = f"{m.group(1) or m.group(3)}=$(({m.group(2) or m.group(4)}))"
    if (m := _APPEND.match(stmt)) and not in_heredoc and len(_words(stmt)) == 1:
        # `MPI_ARG+=" --cpu-bind ..."` appends to the value (bash(1) PARAMETERS, +=)
        name, value = m.group(1), _unquote(m.group(2))
        if value.startswith("(") or script.loops:  # an array's new elements; a value built
            script.arrays.pop(name, None)  # over a loop's iterations: unknown
            if script.loops:
                script.variables.pop(name, None)
            return True
        script.variables[name] = _expanded(script.variables.get(name, "") + value,
                                           script.variables)
        return True
    if m := _UNSET.match(stmt):
        for name in m.group(1).split():
            script.settings.append(Setting(number, name, None, "unset", in_heredoc))
        return True
    if m := _EXPORT_ONLY.match(stmt):
        for name in m.group(1).split():
            if name in script.variables and not in_heredoc:
                script.settings.append(Setting(number, name, script.variables[name], "set", False))
        return True
    if stmt.startswith("export ") and " " in stmt[7:].strip() and "=" in stmt:
        # export A=1 B=2
        try:
            words = split(stmt[7:])
        except ValueError:
            words = []
        if words and all(_ASSIGN.match(w) for w in words):
            for w in words:
                name, _, value = w.partition("=")
                script.settings.append(Setting(number, name, value, "set", in_heredoc))
                if not in_heredoc:
                    script.variables[name] = _value(script, value)
            return True
    m = _ASSIGN.match(stmt)
    if m and not stmt.startswith("export "):
        assigns, rest = leading_assignments(stmt)
        if rest:  # `NAME=value command ...`: the assignment is in the command's environment
            return False
        if len(assigns) > 1:  # `A=1 B=2`
            for w in assigns:
                name, _, value = w.partition("=")
                if in_heredoc:
                    script.settings.append(Setting(number, name, value, "set", True))
                else:
                    script.variables[name] = _value(script, value)
            return True
    if m:
        name, value = m.group(1), _unquote(m.group(2))
        if not in_heredoc and script.loops and re.search(rf"\$\{{?{name}\b", value):
            # `mylist="${mylist}:${first}-${last}"` in a loop: a value built over the
            # iterations, which lint does not run: unknown after it, not one iteration's
            script.variables.pop(name, None)
        elif not in_heredoc:
            script.variables[name] = _value(script, value)
        if stmt.startswith("export ") or in_heredoc:
            script.settings.append(Setting(number, name, value, "set", in_heredoc))
        else:
            script.assignments.append((number, name, m.group(2)))
        return True
    return False


_BRACED = re.compile(r"\$\{[^{}]*\}")  # ${X:-a b}: one word, whatever it holds
_ARITH_ANY = re.compile(r"\$\(\((?:[^()]|\([^()]*\))*\)\)")
_WORD_ASSIGN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*", re.S)


def _words(stmt: str) -> list[str]:
    """The words of a statement as bash splits them, each command substitution one opaque
    word ($RUNTIME_VALUE); [] when it cannot be split (an unclosed quote)."""
    try:
        return split(_runtime_values(_BRACED.sub("$VALUE", _ARITH_ANY.sub("$ARITH", stmt))))
    except ValueError:
        return []


def statement_words(stmt: str) -> list[str]:
    """The words of a statement, each `$(...)`, `$((...))` and `${...}` one opaque word."""
    return _words(stmt)


def leading_assignments(stmt: str) -> tuple[list[str], int]:
    """The assignment words a statement starts with, and how many words follow them: a
    command after them gets them in its environment only (`OMP_NUM_THREADS=1 srun ...`,
    bash(1) SIMPLE COMMAND EXPANSION); none after them, they set shell variables."""
    words = _words(stmt)
    n = 0
    while n < len(words) and _WORD_ASSIGN.fullmatch(words[n]):
        n += 1
    return words[:n], len(words) - n


MAX_VALUE = 4096  # characters of a variable's value kept expanded for later statements
# The job's node count read from the node file PBS writes (one line per chunk: per node where
# a chunk is a node and mpiprocs is 1, or once per node after `sort -u`/`uniq`): `wc -l <
# $PBS_NODEFILE`, `cat $PBS_NODEFILE | uniq | wc -l`, ... (PBS Professional: PBS_NODEFILE
# lists each vnode once per MPI process, mpiprocs per chunk, default 1)
_NODEFILE = r"[\"']?\$\{?PBS_NODEFILE\}?[\"']?"
_NODE_COUNT = re.compile(
    rf"^(?:\$\(|`)\s*(?:wc\s+-l\s*<\s*{_NODEFILE}|(?:cat|sort(?:\s+-u)?)\s+{_NODEFILE}"
    r"(?:\s*\|\s*(?:sort(?:\s+-u)?|uniq))*\s*\|\s*(?:wc\s+-l|sed\s+-n\s+[\"']?\$=[\"']?))\s*"
    r"(?:\)|`)$")
# Slurm's own count of the job's nodes (sbatch(1) OUTPUT ENVIRONMENT VARIABLES)
_SLURM_NODES = re.compile(r"^\$\{?SLURM_(?:JOB_NUM_NODES|NNODES)\}?$")


def _value(script: Script, value: str) -> str:
    """A variable's value for later statements: the job's node count where it is read from
    the node file or Slurm's variable and the directives fix it, else `_expanded`."""
    if _NODE_COUNT.match(value) or _SLURM_NODES.match(value):
        nodes = _job_nodes(script, unique="uniq" in value or "sort -u" in value or
                           "SLURM" in value)
        if nodes is not None:
            return str(nodes)
    return _expanded(value, script.variables)


def _job_nodes(script: Script, unique: bool) -> int | None:
    """The node count the scheduler's directives ask for (`-l select=N` of one kind of chunk,
    `--nodes=N`), None when they leave it open (ranges, several chunk kinds, mpiprocs > 1
    lines per node in a file not made unique)."""
    for d in script.block_directives:
        for key, val in directive_items(d.body):
            if d.prefix == "#PBS" and key == "-l select" and "$" not in val:
                m = re.fullmatch(r"([0-9]{1,6})((?::[\w.=-]+)*)", val)
                if not m:
                    return None
                procs = re.search(r":mpiprocs=([0-9]{1,9})", m.group(2))
                if procs and int(procs.group(1)) != 1 and not unique:
                    return None
                return int(m.group(1))
            if d.prefix == "#SBATCH" and key in ("--nodes", "-N"):
                return int(val) if re.fullmatch(r"[0-9]{1,6}", val) else None
    return None


def _expanded(value: str, variables: dict[str, str]) -> str:
    """A value with the literal variables it references filled in (`CPU_BIND="${CPU_BIND},7e"`
    builds on the earlier value), or as written when that would grow it past MAX_VALUE."""
    if "$" not in value or len(value) > MAX_VALUE:
        return value
    out = substitute(value, variables)
    return out if len(out) <= MAX_VALUE else value


def _command(script: Script, stmt: str, number: int, launch: bool = True) -> None:
    """A command: a module line, a setting, or a launch. The launch of the ranks is the last
    launcher statement outside a function that runs more than housekeeping: scripts prepare
    nodes first (staging, cache directories, MPS daemons) and start the training after, and
    a function (a cleanup trap) runs only when called."""
    if stmt.startswith("module ") or stmt == "module":
        # `module load a 2>/dev/null || module load b`: b is a fallback, loaded only where a
        # fails (bash(1) Lists: || runs the next command when the last one failed), and the
        # redirection is the shell's; `module load a && module load b` loads both
        first, sep, rest = _first_of_list(stmt)
        if sep == "&&" and rest.startswith(("module ", "ml ")):
            _command(script, first, number, launch)
            _command(script, rest, number, launch)
            return
        # `MODULE=conda/2022-09-08; module load $MODULE`: the module the variable names
        try:
            words = command_words(substitute(first, script.variables))
        except ValueError:
            words = substitute(first, script.variables).split()
        script.modules.append((number, " ".join(words)))
        return
    if stmt.startswith("ml "):  # Lmod's short form: `ml use X`, `ml X Y` (load)
        words = substitute(stmt, script.variables).split()[1:]
        verb = words[0] if words and words[0] in ("use", "load", "unload", "purge") else "load"
        rest = words[1:] if words and words[0] == verb else words
        script.modules.append((number, " ".join(["module", verb, *rest])))
        return
    if (m := _ARRAY.match(stmt)) and launch:
        try:
            words = split(substitute(m.group(2), script.variables))
        except ValueError:
            words = ["$"]
        if all(_LOOP_WORD.fullmatch(w) for w in words):
            script.arrays[m.group(1)] = words
        else:
            script.arrays.pop(m.group(1), None)
    if _settings(script, stmt, number, False):
        return
    # (a function's `source` runs only when it is called: not followed)
    if script.bases and (launch or script.source_depth) and \
            script.source_depth < MAX_SOURCE_DEPTH and re.match(r"^(?:source|\.)\s+\S", stmt):
        try:  # (`$(pwd -P)/x.sh`, `$(dirname $0)/x.sh`: the job's directory, one word)
            words = split(re.sub(r"\$\(\s*(?:pwd|dirname|cd)\b[^()]*\)", "$PWD", stmt))
        except ValueError:
            words = []
        found = _companion(script, words[1]) if len(words) > 1 else None
        if found is not None:
            _read_sourced(script, found, number)
    if not launch:
        return
    bindings = _bindings(script, stmt) if script.loops else []
    if not bindings:
        _run(script, stmt, number, number)
        return
    saved = dict(script.variables)
    deps = {name: _dependants(script, stmt, name) for name in bindings[0]}
    for k, binding in enumerate(bindings):  # a launch in a loop: once per value it takes
        for name, value in binding.items():
            if value is None:
                script.variables.pop(name, None)
            else:
                script.variables[name] = value
        for name in binding:  # the values computed from the loop's variable, again
            for dep in deps[name]:
                if binding[name] is None:
                    script.variables.pop(dep, None)
                else:
                    script.variables[dep] = _expanded(saved[dep], script.variables)
        mark = len(script.commands)
        _run(script, stmt, number, number)
        if k and not any(_DEVICE_PREFIX.match(w) for _, words in script.commands[mark:]
                         for w in words[:4]):
            # the batch shell's other commands are read once; one narrowed to a device by
            # the loop's value (`for d in 0 1 2 3; do CUDA_VISIBLE_DEVICES=$d python x.py &`)
            # once per device, as it runs
            del script.commands[mark:]
    script.variables.clear()
    script.variables.update(saved)


# a command's own device list, before its program
_DEVICE_PREFIX = re.compile(r"(?:CUDA|HIP|ROCR)_VISIBLE_DEVICES=|ZE_AFFINITY_MASK=")
MAX_CALLS = 4  # functions calling functions: how deep lint follows them
# commands that run the command after them (`time srun ...`, `nohup torchrun ... &`)
_PASS_WORDS = ("time", "exec", "env", "command", "stdbuf", "nohup")


def _run(script: Script, stmt: str, number: int, at: int, depth: int = 0,
         args: list[str] | None = None) -> None:
    """A command as it runs: a launch of ranks (behind `VAR=value` prefixes and `env`, `time`,
    `exec`), a call of a function the script defines (its launches are read with the
    environment of the call), or another command the batch shell runs itself."""
    text = substitute(_command_variable(stmt, script.variables), script.variables)
    if args is not None:  # in a function: its positional parameters are the call's words
        text = _positional(text, args)
    try:
        # `$(( $(wc -l < $PBS_NODEFILE) * 12 ))` not evaluated: one word known at run time,
        # kept as written but for its blanks (diff shows it; lint reads no number in it)
        words, end = command_words_end(_runtime_values(_ARITH_ANY.sub(_one_word, text)))
    except ValueError:
        return
    env: dict[str, str] = {}
    k = 0
    while k < len(words) and k < 16:
        word = words[k]
        if _WORD_ASSIGN.fullmatch(word):
            name, _, value = word.partition("=")
            env[name] = value
        elif launcher_name(word) in LAUNCHERS:
            _, program = launcher_items(words[k:])
            if program and program[0].rsplit("/", 1)[-1] in HOUSEKEEPING:
                return
            _launch(script, number, stmt, words[k:], env, end == "&", at)
            return
        elif words[k + 1:k + 3] == ["-m", TORCHRUN_MODULE]:  # a chosen Python's own torchrun
            _launch(script, number, stmt, ["torchrun", *words[k + 3:]], env, end == "&", at)
            return
        elif words[k + 1:k + 3] == ["-m", SPAWN_MODULE]:  # jobgen's spawner (local TensorFlow)
            _launch(script, number, stmt, [SPAWN_MODULE, *words[k + 3:]], env, end == "&", at)
            return
        elif (ezpz := ezpz_argv(script, words[k:])) is not None:
            _launch(script, number, stmt, ezpz, env, end == "&", at)
            return
        elif word == "ssh" and depth < MAX_CALLS and (remote := _ssh_command(words[k:])):
            _remote(script, remote, number, stmt, end == "&", at)
            if depth == 0:
                script.commands.append((number, words))
            return
        elif word == "eval" and k + 1 < len(words) and depth < MAX_CALLS:
            # `eval "$CMD"`: bash joins its words with blanks and runs that (bash(1) eval)
            joined = " ".join(words[k + 1:])
            _run(script, joined + (" &" if end == "&" else ""), number, at, depth + 1)
            try:
                inner = command_words_end(joined)[1]
            except ValueError:
                inner = ""
            if "&" in (end, inner):  # (the `&` came from the variable: the line hides it)
                script.eval_background.add(number)
            if depth == 0 and not (script.launches and script.launches[-1].line == number):
                script.commands.append((number, words))
            return
        elif word in script.functions and depth < MAX_CALLS:
            _call(script, word, words[k + 1:], at, depth)
            return
        elif (j := _wrapped_launcher(words, k)) is not None:
            # `timeout 2h srun ...`, `$dir/with_postgresql.sh NAME jsrun ...`: a command that
            # runs the command after its own arguments (heldout-2026-11-27m's TorkamaniLab job)
            k = j
            continue
        elif word not in _PASS_WORDS:
            break
        k += 1
    if words and (words[0] in ("source", ".") and len(words) > 1 and "ezpz" in words[1]
                  or words[0] in _EZPZ_SETUP):
        script.ezpz = True
    if words and depth == 0:
        script.commands.append((number, words))
    if end in ("|", "|&") and depth < MAX_CALLS:
        # `echo "$INPUT" | jsrun ... ./app`: the pipeline's next command runs too, its
        # standard input from this one (bash(1) Pipelines)
        rest = _after_pipe(stmt)
        if rest:
            _run(script, rest, number, at, depth + 1 if depth else 0, args)


# an assignment in a function's body: `local n=$1`, `declare -i n=$2`, `n="$1"`
_BODY_ASSIGN = re.compile(r"^(?:(?:local|declare|typeset|readonly)(?:\s+-[a-zA-Z]+)*\s+)?"
                          r"([A-Za-z_][A-Za-z0-9_]*)=(\$\(\(.*\)\)|\S*)$")


def _call(script: Script, name: str, args: list[str], at: int, depth: int) -> None:
    """A call of a function the script defines: its body run with the call's words as its
    positional parameters; the names it assigns on the way (`local ngpus=$1`,
    `local nodes=$(( (ngpus + 3) / 4 ))`) take the values of this call while it runs, so the
    launch in `run_case 8 4` reads `mpiexec -n 8 --ppn 4` (round 21, after heldout-2026-11-29t's
    CIFAR-10 scaling study). A value lint cannot compute is unknown. Once the call returns, a
    name it declared `local` (or with declare/typeset, local in a function: bash(1)) is as it
    was before; one it assigned plainly keeps the call's value, as in bash."""
    before: dict[str, str | None] = {}  # each local's value outside the call
    for line, part in script.functions[name]:
        stmt = part.strip()
        m = _BODY_ASSIGN.match(stmt)
        if not m:
            _run(script, part, line, at, depth + 1, args)
            continue
        var = m.group(1)
        if stmt.startswith(("local", "declare", "typeset")):
            before.setdefault(var, script.variables.get(var))
        value = _unquote(substitute(_positional(m.group(2), args), script.variables))
        if "$" in value or "`" in value:  # (known only when it runs)
            script.variables.pop(var, None)
        else:
            script.variables[var] = value
    for var, value in before.items():
        if value is None:
            script.variables.pop(var, None)
        else:
            script.variables[var] = value


def _wrapped_launcher(words: list[str], k: int) -> int | None:
    """Where a launcher starts among the words after `timeout DURATION` or a shell script's
    plain arguments (`./env.sh NAME srun ...`): up to three words, none an option or a
    redirection; None otherwise."""
    word = words[k]
    if word == "timeout":
        j = k + 1
        while j < len(words) and words[j].startswith("-"):
            j += 2 if words[j] in ("-s", "-k", "--signal", "--kill-after") else 1
        return j + 1 if j + 1 < len(words) and launcher_name(words[j + 1]) in LAUNCHERS \
            else None
    if not word.endswith(".sh"):
        return None
    for j in range(k + 1, min(k + 5, len(words))):
        if launcher_name(words[j]) in LAUNCHERS:
            return j
        if words[j].startswith(("-", ">", "<")) or "=" in words[j]:
            return None
    return None


def _after_pipe(stmt: str) -> str:
    """The text after a statement's first pipe (`|`, `|&`) outside quotes and substitutions,
    or ''."""
    quote = None
    depth = 0
    for j, ch in enumerate(stmt):
        if quote:
            if ch == quote:
                quote = None
            elif ch == "\\" and quote == '"':
                continue
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == "|" and depth == 0 and stmt[j - 1:j] not in ("|", ">") and \
                stmt[j + 1:j + 2] != "|":
            return stmt[j + 1:].lstrip("&").strip()
    return ""


_COMMAND_VAR = re.compile(r'^(eval\s+)?"?\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|'
                          r'([A-Za-z_][A-Za-z0-9_]*))"?(?=\s|$|\|)')


def _first_of_list(stmt: str) -> tuple[str, str, str]:
    """`a 2>/dev/null || b` -> ('a 2>/dev/null', '||', 'b'): a statement's first command, the
    list operator after it (&& or ||, outside quotes) and the rest; ('stmt', '', '') if none."""
    quote = None
    for j, ch in enumerate(stmt):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif stmt.startswith(("&&", "||"), j):
            return stmt[:j].strip(), stmt[j:j + 2], stmt[j + 2:].strip()
    return stmt, "", ""


def _command_variable(stmt: str, variables: dict[str, str]) -> str:
    """A command kept in a variable and run from it (`run_cmd="mpiexec -n $NTOTRANKS ..."`;
    `eval $run_cmd`, `$CMD`): the command as its value spells it, run-time parts and all
    (substitute() puts only literal values in; these stay words known at run time)."""
    m = _COMMAND_VAR.match(stmt)
    if not m:
        return stmt
    value = variables.get(m.group(2) or m.group(3))
    if value is None or "$" not in value or "`" in value or len(value) > MAX_EXPANDED:
        return stmt

    def inner(v: re.Match[str]) -> str:  # `$NSYS_ARGS` inside it: bash expanded it already
        name = v.group(1) or v.group(2)
        text = variables.get(name)
        if text is None or "$(" in text or "`" in text or len(text) > 4096 or \
                re.search(r"\$\{?" + name + r"\b", text):
            return v.group(0)
        return text

    value = _VAR.sub(inner, value)
    return (m.group(1) or "") + value + stmt[m.end():]


# ezpz (saforem2/ezpz), a Python launcher that builds the site's own launch line itself:
# `ezpz launch`, `ezpz-launch`, `python3 -m ezpz.launch` (pyproject.toml [project.scripts];
# src/ezpz/launch.py run/parse_args, src/ezpz/cli/flags.py build_launch_parser @ 1229a179).
EZPZ = "ezpz-launch"
# its options that take a value, by the name lint reads them as (flags.py build_launch_parser)
_EZPZ_FLAGS = {
    **dict.fromkeys(("-n", "-np", "--n", "--np", "--nproc", "--world_size", "--nprocs"), "--np"),
    **dict.fromkeys(("-ppn", "--ppn", "--nproc_per_node"), "--ppn"),
    **dict.fromkeys(("-nh", "--nh", "--nhost", "--nnode", "--nnodes", "--nhosts"), "--nhosts"),
    "--hostfile": "--hostfile", "--cpu-bind": "--cpu-bind", "--timeout": "--timeout",
    "--retries": "--retries", "--spare-nodes": "--spare-nodes",
    "--max-failover-retries": "--max-failover-retries", "--filter": "--filter",
}
# ezpz's shell helpers that set up its `launch` alias (src/ezpz/bin/utils.sh: `alias
# launch="${LAUNCH}"`, the job's mpiexec over every GPU of every node, and ezpz_launch)
_EZPZ_SETUP = frozenset({"ezpz_setup_env", "ezpz_setup_job", "ezpz_setup_alcf",
                         "ezpz_setup_host", "ezpz_setup_python"})
_EZPZ_SNIPPET = re.compile(r"from\s+ezpz\.cli\s+import\s+main\b.*\bmain\(\)", re.S)


def ezpz_argv(script: Script, words: list[str]) -> list[str] | None:
    """An ezpz launch as `ezpz-launch [--np N] [--ppn P] [--nhosts H] [...] PROGRAM...`, or
    None. ezpz takes its own options anywhere before `--` (argparse parse_known_args) and runs
    the rest; the shell helpers' `launch` and $LAUNCH run on every GPU of the job."""
    first = words[0].rsplit("/", 1)[-1] if words else ""
    if first == EZPZ:
        rest = words[1:]
    elif first == "ezpz" and words[1:2] == ["launch"]:
        rest = words[2:]
    elif re.fullmatch(r"python[0-9.]*", first) and words[1:3] == ["-m", "ezpz.launch"]:
        rest = words[3:]
    elif re.fullmatch(r"python[0-9.]*", first) and words[1:2] == ["-c"] and len(words) > 3 \
            and _EZPZ_SNIPPET.search(words[2]) and words[3] == "launch":
        rest = words[4:]  # `python -c 'from ezpz.cli import main; main()' launch ...`
    elif script.ezpz and words[0] in ("launch", "ezpz_launch", "$LAUNCH", "${LAUNCH}",
                                      "$DIST_LAUNCH", "${DIST_LAUNCH}", "$ezlaunch",
                                      "${ezlaunch}") and "launch" not in script.functions:
        return [EZPZ, *words[1:]]
    else:
        return None
    if "--" in rest:
        own, program = rest[:rest.index("--")], rest[rest.index("--") + 1:]
    else:
        own, program = rest, []
    flags: list[str] = []
    k = 0
    unknown: list[str] = []
    while k < len(own):
        key, eq, value = own[k].partition("=")
        name = _EZPZ_FLAGS.get(key)
        if name is not None and (eq or k + 1 < len(own)):
            flags += [name, value if eq else own[k + 1]]
            k += 1 if eq else 2
            continue
        unknown.append(own[k])
        k += 1
    # without `--` the unknown words are the command; with it, they go to the launcher
    return [EZPZ, *flags, *(program if program else unknown)]


_POSITIONAL = re.compile(r"\$\{?([1-9@*])\}?|\"\$([@*])\"")


def _positional(text: str, args: list[str]) -> str:
    """`$1`, `${2}`, `$@` in a function's body with the words it was called with (literal
    words only: one that needs quoting is left as written)."""
    literal = all(re.fullmatch(r"[\w./:=,+@%-]+", a) for a in args)

    def value(m: re.Match[str]) -> str:
        which = m.group(1) or m.group(2)
        if which in "@*":  # `cmd mpiexec -n "$NRANKS" ...` -> `time "$@"`: the words as called
            return " ".join(args) if literal else " ".join(quote(a) for a in args)
        if not literal:  # one word of several: left as written
            return m.group(0)
        n = int(which)
        return args[n - 1] if n <= len(args) else ""

    return _POSITIONAL.sub(value, text)


def _launch(script: Script, number: int, stmt: str, argv: list[str],
            env: dict[str, str] | None = None, background: bool = False,
            at: int | None = None, remote: bool = False) -> None:
    script.launch_line = number
    script.launch_text = stmt
    script.launch_argv = argv
    script.launches.append(Launch(number, stmt, argv, env or {}, background,
                                  number if at is None else at, remote=remote,
                                  looped=bool(script.loops)))


# ssh(1)'s options that take a value (OpenSSH ssh.1 SYNOPSIS: -B bind_interface, -b
# bind_address, -c cipher_spec, -D, -E log_file, -e escape_char, -F configfile, -I pkcs11,
# -i identity_file, -J destination, -L address, -l login_name, -m mac_spec, -O ctl_cmd,
# -o option, -P tag, -p port, -Q query_option, -R address, -S ctl_path, -W host:port,
# -w local_tun[:remote_tun]).
_SSH_VALUE = frozenset("BbcDEeFIiJLlmOoPpQRSWw")


def _ssh_command(words: list[str]) -> str | None:
    """The command `ssh [options] HOST COMMAND...` runs on HOST (its words joined with blanks,
    as ssh sends them to the remote shell), or None where it runs none (a login)."""
    k = 1
    while k < len(words) and words[k].startswith("-") and len(words[k]) > 1:
        k += 2 if len(words[k]) == 2 and words[k][1] in _SSH_VALUE else 1
    return " ".join(words[k + 1:]) or None if k + 1 < len(words) else None


def _remote(script: Script, command: str, number: int, stmt: str, background: bool,
            at: int) -> None:
    """The launches of a command string ssh runs on another node (`ssh $NODE "cd $PWD; export
    NCCL_X=1; torchrun ..." &`): each with what the string itself exports before it, and
    nothing of the batch shell's environment (sshd starts a new shell for it: OpenSSH
    sshd.8 LOGIN PROCESS; variables are passed only where SendEnv/AcceptEnv allow it)."""
    env: dict[str, str] = {}
    for part in re.split(r";|&&|\|\||\n", command):
        try:
            words = command_words(part.strip())
        except ValueError:
            continue
        k = 0
        prefix: dict[str, str] = {}
        if words[:1] == ["export"]:
            env.update(w.split("=", 1) for w in words[1:] if _WORD_ASSIGN.fullmatch(w))
            continue
        while k < len(words) and (_WORD_ASSIGN.fullmatch(words[k]) or
                                  words[k] in _PASS_WORDS):
            if "=" in words[k]:
                name, _, value = words[k].partition("=")
                prefix[name] = value
            k += 1
        if k < len(words) and launcher_name(words[k]) in LAUNCHERS:
            _launch(script, number, stmt, words[k:], {**env, **prefix}, background, at,
                    remote=True)
        elif words[k + 1:k + 3] == ["-m", TORCHRUN_MODULE]:
            _launch(script, number, stmt, ["torchrun", *words[k + 3:]], {**env, **prefix},
                    background, at, remote=True)


def _unescape(value: str) -> str:
    """`\\$X` in an unquoted here-document is `$X` in the file it writes."""
    return value.replace("\\$", "$")


def launcher_name(word: str) -> str:
    """`/usr/bin/mpiexec.mpich` -> `mpiexec`: the launcher a command word names
    (`workloads.spawn` and `ezpz-launch`, the names spawner and ezpz launches are read as,
    stay whole)."""
    if word in (SPAWN_MODULE, EZPZ):
        return word
    return word.rsplit("/", 1)[-1].split(".", 1)[0]


_CONTROL = frozenset({"&", "&&", "|", "||", ";", ";;", "|&"})
_REDIRECT = re.compile(r"(\d*)(>>?|<<?|>&|<&|&>>?|>\|)(.*)")


def command_words(text: str) -> list[str]:
    """The words of one simple command: `cmd args &` or `cmd args > log 2>&1 | tee` ends at
    the control operator and leaves out redirections, which the shell never passes on."""
    return command_words_end(text)[0]


def command_words_end(text: str) -> tuple[list[str], str]:
    """command_words, and the control operator that ends the command ('' at the end)."""
    words: list[str] = []
    pieces = split(text)
    k = 0
    while k < len(pieces):
        word = pieces[k]
        if word in _CONTROL:
            return words, word
        if word.endswith("&") and not word.endswith(("&&", ">&", "<&")) and len(word) > 1 \
                and k == len(pieces) - 1:  # `cmd args&`
            words.append(word[:-1])
            return words, "&"
        m = _REDIRECT.fullmatch(word)
        if m:
            k += 1 if m.group(3) else 2  # `2>&1`, `>log` carry their target; `>` takes the next
            continue
        words.append(word)
        k += 1
    return words, ""


def _one_word(m: re.Match[str]) -> str:
    """An arithmetic expansion as one word: as written without its blanks, or `$ARITH` where
    it holds quotes or substitutions that would split or run."""
    word = re.sub(r"\s+", "", m.group(0))
    return word if re.fullmatch(r"\$\(\([\w+\-*/%()<>=!&|^~?:,.$]*\)\)", word) and \
        "$(" not in word[3:] else "$ARITH"


def _runtime_values(text: str) -> str:
    """`$(cmd ...)` is known at run time only: one opaque word instead of its pieces. So is a
    process substitution, `>(tee out.log)` or `<(cmd)`, a file name the shell makes (bash
    manual 3.5.6 Process Substitution: "the file name is passed as an argument to the
    current command"), also as a redirection's target (`python "$@" > >(tee a.out)`)."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == "`" and "`" in text[i + 1:]:  # `cmd`, the old spelling of $(cmd)
            out.append("$RUNTIME_VALUE")
            i = text.index("`", i + 1) + 1
            continue
        if text.startswith(("$(", ">(", "<("), i) and not text.startswith("$((", i) and (
                text[i] == "$" or i == 0 or text[i - 1] in " \t"):
            depth, j = 0, i + 1
            while j < len(text):
                depth += {"(": 1, ")": -1}.get(text[j], 0)
                if depth == 0:
                    break
                j += 1
            out.append("$RUNTIME_VALUE")
            i = j + 1
            continue
        out.append(text[i])
        i += 1
    return "".join(out)


def parse_file(path: Path | str, follow: bool = False) -> Script:
    """A script from disk: a regular text file of bounded size, read once."""
    return parse_text(read_text(Path(path), "script"), str(path), follow)


# ---------------------------------------------------------------- companion files
# A job script runs in the directory it was submitted from (PBS_O_WORKDIR, SLURM_SUBMIT_DIR,
# LS_SUBCWD), usually its own or its repository's root: lint looks for the files it names in the
# script's directory and up to three directories above it. Read: regular UTF-8 files of at most
# COMPANION_BYTES, two levels of `source` deep; never run.
COMPANION_BYTES = 256 * 1024
MAX_SOURCE_DEPTH = 2
# the directory the job starts in, however the script spells it: lint tries each base instead
# (SLURM_SUBMIT_DIR, PBS_O_WORKDIR, $(pwd -P), $(dirname $0), or a variable of the script's
# own lint does not know, `$THIS/setup.sh`, `${ROOT_DIR}/env.sh`: tried against each base)
_START_DIR = re.compile(r"^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}?|"
                        r"\$\(\s*pwd(?:\s+-[LP])?\s*\)|\$\(\s*dirname\s+[^)]*\)|"
                        r"\$\(\s*cd\s+[^)]*&&\s*pwd(?:\s+-[LP])?\s*\)|\.)(?=/)")


def _companion_bases(path: Path) -> list[Path]:
    """The directories lint reads a script's companion files from: its own and up to three
    above it (a job script in jobs/ submitted from the repository's root)."""
    try:
        start = path.resolve().parent if path.is_file() else None
    except OSError:
        return []
    if start is None:
        return []
    return [start, *list(start.parents)[:3]]


def _companion(script: Script, word: str) -> Path | None:
    """The file a path word of the script names, where it exists under one of its bases (or
    at its absolute path); None where lint cannot read it."""
    if not script.bases or not word:
        return None
    value = _expanded(word, script.variables)
    value = _START_DIR.sub("", value, count=1).lstrip("/") if _START_DIR.match(value) \
        else value
    if "`" in value or "*" in value:
        return None
    candidates = [] if "$" in value else [Path(value)] if value.startswith("/") else \
        [base / value for base in script.bases]
    # a path through the repository's clone elsewhere (`${HOME}/parameter-golf/scripts/
    # slurm/setup_env.sh`, `/lus/.../repo/env/setup.sh`): its tail of two or more parts
    # under a base (the repository's own copy beside the job script)
    parts = [p for p in value.split("/") if p]
    for k in range(1, len(parts) - 1):
        if "$" not in "/".join(parts[k:]):
            candidates += [base.joinpath(*parts[k:]) for base in script.bases]
    for candidate in candidates:
        try:
            if candidate.is_file() and candidate.stat().st_size <= COMPANION_BYTES:
                return candidate
        except OSError:
            continue
    return None


def _companion_text(path: Path) -> str | None:
    """A companion file's text; None where it is no UTF-8 text file of bounded size."""
    try:
        return read_text(path, "companion file", COMPANION_BYTES)
    except (JobgenError, OSError):
        return None


def _read_sourced(script: Script, path: Path, number: int) -> None:
    """The statements of a file the script sources, read at the `source` line: its exports,
    variables and modules (its functions and launches are not the job's launch)."""
    text = _companion_text(path)
    if text is None:
        return
    script.sourced.append((number, path))
    script.source_depth += 1
    lines = text.split("\n")
    i, in_function = 0, False
    while i < len(lines):
        stripped = lines[i].strip()
        i += 1
        if not stripped or stripped.startswith("#"):
            continue
        logical, i = _join_continued(lines, i, stripped)
        if _FUNCTION.match(logical):
            in_function = not logical.rstrip().endswith("}")
            continue
        if in_function:
            in_function = logical != "}"
            continue
        for part in _split_commands(logical):
            _command(script, part, number, launch=False)
    script.source_depth -= 1


# ---------------------------------------------------------------- tokenising
def directive_items(body: str) -> list[tuple[str, str]]:
    """'-l select=2:system=x,walltime=1:00:00' -> [('-l select', '2:system=x'), ...]."""
    try:
        words = split(body)
    except ValueError:
        words = body.split()
    out: list[tuple[str, str]] = []
    k = 0
    while k < len(words):
        w = words[k]
        if w.startswith("--") and "=" in w:
            key, _, value = w.partition("=")
            out.append((key, value))
        elif w == "-l" and k + 1 < len(words):
            k += 1
            for res in words[k].split(","):
                name, _, value = res.partition("=")
                out.append((f"-l {name}", value))
        elif w.startswith("-") and k + 1 < len(words) and not words[k + 1].startswith("-"):
            out.append((w, words[k + 1]))
            k += 1
        else:
            out.append((w, ""))
        k += 1
    return out


# A variable standing for more launcher options (`$SMPIARGS`, `${MPI_OPTS}`, `$SRUN_FLAGS`):
# named so, and followed by options, it does not end the launcher's options (a variable that
# is the program, `$EXE --input f`, does).
_OPTION_BUNDLE = re.compile(r"\$\{?[A-Za-z_]\w*(?:ARGS|OPTS|OPTIONS|FLAGS)\}?", re.I)


def launcher_items(argv: list[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """Launcher flags as (flag, value) and the rest of the line (the program and its args)."""
    items: list[tuple[str, str]] = []
    booleans = BOOLEAN_FLAGS - JSRUN_VALUE_FLAGS if argv and launcher_name(argv[0]) == "jsrun" \
        else BOOLEAN_FLAGS
    k = 1
    while k < len(argv):
        w = argv[k]
        if _OPTION_BUNDLE.fullmatch(w) and k + 1 < len(argv) and argv[k + 1].startswith("-"):
            items.append((w, ""))  # `jsrun -n4 $SMPIARGS --bind packed:7 prog`: more options
            k += 1
            continue
        if not w.startswith("-"):
            break
        if "=" in w and w.startswith("-"):
            key, _, value = w.partition("=")
            items.append((key, value))
        elif w in DASH_VALUE_FLAGS and k + 1 < len(argv):
            items.append((w, argv[k + 1]))
            k += 1
        elif w in booleans or k + 1 >= len(argv) or argv[k + 1].startswith("-"):
            items.append((w, ""))
        else:
            items.append((w, argv[k + 1]))
            k += 1
        k += 1
    return items, argv[k:]


def launcher_flags(argv: list[str]) -> dict[str, str]:
    items, _ = launcher_items(argv)
    return {k: v for k, v in items}
