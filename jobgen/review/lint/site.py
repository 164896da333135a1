"""Which site's rules apply to a script when `--site` is not given.

In order: the jobgen header or a `# site: NAME` line; else the clues the script gives, each
weighed: its directives (a PBS system= resource, a filesystem, a queue or partition only one
site has, a LUMI project number, LSF's -nnodes), its launcher (jsrun), its modules, its paths
(/lus/flare, /gpfs/alpine, /appl/local) and host names; weakly, a site's name in the file's
name or in its comments. Clues of sites jobgen has no profile
for (Frontier, Perlmutter...) count against the others. A script whose clues are absent, or
point to two sites, is not guessed: lint asks for `--site`.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass

from ...profiles.load import load_profile, site_names
from ...profiles.model import Profile
from ..scriptparse import PREFIXES, Script, directive_items, parse_text


@dataclass(frozen=True)
class Clue:
    site: str  # a profile's name, or `other:NAME` for a site jobgen has no profile for
    pattern: re.Pattern[str]
    weight: int  # 3: only this site; 2: this site among few; 1: a hint
    what: str  # how lint names it when it reports which clues it used
    source: str  # where the site documents it
    # other sites the clue points to as much (a family sharing software): it adds to each
    # of them alike and makes none of them a strong guess, so it never decides between them
    also: tuple[str, ...] = ()
    # sites the clue fits too, but less (Sunspot, Aurora's test system with its software):
    # weight 1 each, enough for a weak clue of theirs (the file's name) to win over it, never
    # enough to win alone
    kin: tuple[str, ...] = ()


def _c(site: str, pattern: str, weight: int, what: str, source: str,
       also: tuple[str, ...] = (), kin: tuple[str, ...] = ()) -> Clue:
    return Clue(site, re.compile(pattern, re.M), weight, what, source, also, kin)


_ALCF = "argonne-lcf/user-guides @ 7d04a3f9"
_OLCF = "olcf/olcf-user-docs @ 2745903"
_LUMI = "Lumi-supercomputer/lumi-userguide @ 6c3a26c"
# Clues read from the script's code (commands and directives, not comment lines).
CLUES: tuple[Clue, ...] = (
    # ---- Aurora (Sunspot, its test system, shares the software: those clues name Aurora)
    _c("aurora", r"/lus/flare\b", 3, "path /lus/flare",
       f"{_ALCF} docs/aurora/data-management/lustre/flare.md (Flare, Aurora's Lustre)"),
    _c("aurora", r"(?:^|[\s=:\"'])/flare/", 3, "path /flare (Aurora's Lustre, short form)",
       f"{_ALCF} docs/aurora/data-science/inference/vllm.md L50 (HF_HOME=\"/flare/datasets/"
       "model-weights\")"),
    _c("aurora", r"\.hsn\.cm\.aurora\.alcf\.anl\.gov", 3, "host *.hsn.cm.aurora.alcf.anl.gov",
       f"{_ALCF} docs/aurora/data-science/frameworks/pytorch.md (MASTER_ADDR)"),
    # Sunspot runs Aurora's programming environment under the same /opt/aurora paths
    # ("Virtually all hardware and software aspects of Sunspot are identical to Aurora", and
    # its module listing shows /opt/aurora/23.073.0/...: argonne-lcf/user-guides @ e0a5b88c
    # docs/aurora/sunspot-to-aurora.md L3, L91, the page's last version before 7fa0e0bc
    # removed it): a clue to both, deciding neither
    _c("aurora", r"/opt/aurora/", 3, "path /opt/aurora (Aurora or Sunspot)",
       f"{_ALCF} docs/aurora (software under /opt/aurora); argonne-lcf/user-guides @ e0a5b88c "
       "docs/aurora/sunspot-to-aurora.md L3, L91 (Sunspot: the same software)",
       also=("sunspot",)),
    _c("aurora", r"\bmodule\s+(?:load|add)\s+(?:[^\n;]*\s)?frameworks\b|\bml\s+frameworks\b", 2,
       "module frameworks", f"{_ALCF} docs/aurora/data-science/python.md (module load "
       "frameworks)", kin=("sunspot",)),
    _c("aurora", r"\bgpu_tile_compact\.sh\b|\bZE_FLAT_DEVICE_HIERARCHY\b|\bCCL_KVS_MODE\b", 2,
       "Intel GPU wrapper or oneCCL/Level Zero variable",
       f"{_ALCF} docs/aurora/running-jobs-aurora.md; docs/aurora/data-science/frameworks/"
       "oneCCL.md", kin=("sunspot",)),
    _c("aurora", r"\bdaos_user\b|\blaunch-dfuse\.sh\b", 3, "DAOS on Aurora",
       f"{_ALCF} docs/aurora/data-management/daos/daos-overview.md"),
    # ---- Sunspot
    _c("sunspot", r"\bsystem=sunspot\b|/lus/gila\b|/lus/tegu\b", 3,
       "Sunspot's system resource or filesystems",
       f"{_ALCF} docs/aurora/sunspot.md (Sunspot, gila and tegu filesystems)"),
    # its filesystems asked for, in a directive or the qsub line its comments give (`# qsub
    # ... -q workq -l filesystems=gila`: heldout-2026-11-28r's dl_scaling job, tuned on it)
    _c("sunspot", r"\bfilesystems=[^\s]*\b(?:gila|tegu)\b", 3,
       "Sunspot's filesystems asked for (filesystems=...gila or tegu)",
       "argonne-lcf/user-guides @ e0a5b88c docs/aurora/sunspot-to-aurora.md (Sunspot (gila) "
       "and Aurora (gecko) mount their own filesystems); public Sunspot jobs asking "
       "filesystems=home:tegu (the site profile sunspot's PUBLIC)"),
    _c("sunspot", r"\bsunspot\b", 2, "the name sunspot",
       f"{_ALCF} docs/aurora/sunspot.md"),
    # ---- Polaris
    _c("polaris", r"/lus/(?:eagle|grand)\b|(?:^|[\s=:\"'])/(?:eagle|grand)/", 2,
       "path /lus/eagle or /lus/grand",
       f"{_ALCF} docs/data-management/filesystem-and-storage/eagle.md (Eagle and Grand: "
       "Polaris's project filesystems)"),
    # grand, Polaris's other project filesystem, is no longer listed as a filesystems= value
    # ("Valid filesystems are `home` and `eagle`", UG docs/running-jobs/index.md L272; qsub
    # still took it in 2026: ALCF003's note), and a script asking for it was written for
    # Polaris (the guide's own examples still ask `filesystems=home:grand:eagle`:
    # docs/polaris/containers/containers.md L10)
    _c("polaris", r"^#PBS\s+-l\s+[^\n]*\bfilesystems=[^\n]*\bgrand\b", 2,
       "filesystem grand (Polaris's, no longer listed)",
       f"{_ALCF} docs/running-jobs/index.md L272; docs/polaris/containers/containers.md L10"),
    _c("polaris", r"\.hsn\.cm\.polaris\.alcf\.anl\.gov|\bset_affinity_gpu_polaris\.sh\b|"
       r"\benable_mps_polaris\b", 3, "Polaris host name or helper script",
       f"{_ALCF} docs/polaris/running-jobs/using-gpus.md (set_affinity_gpu_polaris.sh, "
       "enable_mps_polaris.sh)"),
    _c("polaris", r"\bconda/20[0-9]{2}-[0-9]{2}-[0-9]{2}\b", 2, "a dated conda module",
       f"{_ALCF} docs/polaris/data-science/python.md (module load conda/2024-04-29, ...)"),
    # ---- Summit (LSF: also LLNL's Lassen and Sierra, whose clues are below)
    _c("summit", r"^#BSUB\s+-nnodes\b", 2, "#BSUB -nnodes",
       f"{_OLCF} systems/summit_user_guide.rst (bsub -nnodes)"),
    _c("summit", r"^#BSUB\s+-alloc_flags\b", 2, "#BSUB -alloc_flags",
       f"{_OLCF} systems/summit_user_guide.rst (-alloc_flags)"),
    _c("summit", r"(?:^|[\s;&|(])jsrun\s", 2, "jsrun",
       f"{_OLCF} systems/summit_user_guide.rst (Job Launcher (jsrun))"),
    _c("summit", r"/gpfs/alpine2?\b|\.summit\.olcf\.ornl\.gov|\bibm-wml-ce\b|\bopen-ce\b", 3,
       "Summit's GPFS (/gpfs/alpine), host or ML module",
       f"{_OLCF} systems/summit_user_guide.rst (Alpine; IBM Watson Machine Learning CE, "
       "open-ce)"),
    # LSF's job variables: Summit is the one LSF site jobgen has a profile for (LLNL's LSF
    # systems have their own clue above weight 2: lrun, /p/gpfs1)
    _c("summit", r"\$\{?(?:LSB_(?:JOBID|JOBINDEX|HOSTS|QUEUE|DJOB_HOSTFILE|DJOB_NUMPROC|"
       r"MCPU_HOSTS|JOBNAME)|LS_SUBCWD)\b", 2, "an LSF job variable (LSB_JOBID, LSB_HOSTS...)",
       f"{_OLCF} systems/summit_user_guide.rst L975-1000 (LSF environment variables: "
       "LSB_JOBID, LSB_HOSTS, LS_SUBCWD...)"),
    _c("summit", r"^#BSUB\s+-P\s+[A-Za-z]{3}[0-9]{3}\b", 2, "an OLCF project id (-P ABC123)",
       f"{_OLCF} systems/summit_user_guide.rst (#BSUB -P ABC123)"),
    # ---- LUMI
    _c("lumi", r"\bproject_46[0-9]{7}\b", 3, "a LUMI project number (project_46...)",
       f"{_LUMI} docs/runjobs/scheduled-jobs/batch-job.md (--account=project_465000000)"),
    _c("lumi", r"^#SBATCH\s+(?:-p\s*|--partition[= ])(?:standard-g|small-g|dev-g|largemem|"
       r"lumid)\b", 3, "a LUMI partition",
       f"{_LUMI} docs/runjobs/scheduled-jobs/partitions.md"),
    _c("lumi", r"/appl/local/|/appl/lumi\b|\blumi-aif-singularity-bindings\b|"
       r"\bsingularity-AI-bindings\b|\bmodule\s+(?:load|use)\s+[^\n]*\bLUMI/[0-9]", 3,
       "LUMI's software paths or modules (/appl/local, LUMI/24.03, the AI bindings)",
       f"{_LUMI} docs/runjobs/lumi_env/Lmod_modules.md; Lumi-supercomputer/LUMI-AI-Guide @ "
       "a7e3387"),
    # the guide's CPU binding for LUMI-G's 8 GCDs (the first cores of each GCD's CCD)
    _c("lumi", r"\bmap_cpu:49,57,17,2[0-9],1,9,33,41\b|\bmask_cpu:0?x?[7f]e000000000000,", 3,
       "LUMI-G's documented CPU binding (map_cpu:49,57,17,25,... / mask_cpu:7e..)",
       f"{_LUMI} docs/runjobs/scheduled-jobs/lumig-job.md L54, L98"),
    _c("lumi", r"\bpartition/[GCL]\b|/(?:scratch|flash|project)/project_[0-9]+", 2,
       "LUMI partition module or project directory",
       f"{_LUMI} docs/storage/index.md (/scratch/project_..., /flash/project_...)"),
    # ---- JLSE
    _c("jlse-mi250", r"\bgpu_amd_mi250\b|\bjlse\b|\bjlselogin", 3, "JLSE's MI250 queue or name",
       "the site profile jlse-mi250 (queue gpu_amd_mi250)"),
    # ---- sites jobgen has no profile for: their clues keep lint from guessing another
    _c("other:frontier", r"/lustre/orion\b|\bfrontier\b|\bcrusher\b|\bspock\b|\bandes\b|"
       r"\bdefiant\b|\.olcf\.ornl\.gov|^#SBATCH\s+-A\s*[A-Za-z]{3}[0-9]{3}\b", 3,
       "OLCF's Slurm systems (Frontier, Crusher, Andes, ...)",
       f"{_OLCF} systems/frontier_user_guide.rst (/lustre/orion, #SBATCH -A ABC123)"),
    _c("other:nersc", r"/global/(?:cfs|homes|common|u[12])/|\bperlmutter\b|\bnersc\b|"
       r"^#SBATCH\s+(?:-C|--constraint)[= ]?\s*gpu\b|\bcori\b", 3, "NERSC (Perlmutter, Cori)",
       "NERSC/sc22-dl-tutorial @ 21ea7dc (Perlmutter scripts: -C gpu, /global/cfs)"),
    _c("other:llnl", r"(?:^|[\s;&|(])lrun\s|/p/gpfs1/|\blassen\b|\bsierra\b", 3,
       "LLNL's LSF systems (Lassen, Sierra)", "LLNL hpc.llnl.gov (lrun, /p/gpfs1)"),
    # SummitDev (4 GPUs per node) and Titan: retired OLCF systems whose scripts look like
    # Summit's (#BSUB -nnodes, jsrun); not in the current OLCF documents, told by their own
    # names (project ids ending SUMDEV, the Lustre /lustre/atlas they shared): spot set
    # 2026-11-28o's AMReX SummitDev scripts (tuned on them)
    _c("other:olcf-retired", r"\bsummitdev\b|\b[A-Za-z]{3}[0-9]{3}SUMDEV\b|/lustre/atlas[0-9]?/",
       3, "a retired OLCF system (SummitDev, Titan: /lustre/atlas, SUMDEV projects)",
       "the scripts' own names (unconfirmed in the current olcf/olcf-user-docs, which no "
       "longer describe SummitDev)"),
    _c("other:alcf", r"^#PBS\s+-q\s*by-(?:gpu|node)\b|\bqsub\b.*\s-q\s*by-(?:gpu|node)\b|"
       r"\bsystem=(?:sophia|crux|edith)\b|\bcerebras\b|\bsambanova\b|"
       r"\bgraphcore\b|\bgroq\b|\bhabana\b|\btheta(?:gpu)?\b", 3,
       "another ALCF system (Sophia: queues by-gpu, by-node; Crux, the AI testbed, Theta)",
       f"{_ALCF} docs/sophia (queueing-and-running-jobs/running-jobs.md L15-16: by-gpu, "
       "by-node), docs/crux, docs/ai-testbed"),
)

# Queue names many sites use: they say nothing about which site a script is for.
_GENERIC = frozenset({"debug", "prod", "production", "batch", "regular", "small", "standard",
                      "normal", "large", "long", "short", "preemptable", "capacity", "demand",
                      "workq", "gpu", "cpu", "killable"})


@dataclass(frozen=True)
class SiteGuess:
    site: str | None
    clues: list[str]  # what the site was told from, or what conflicts
    reason: str = ""  # why no site, when none


def _queues(profile: Profile) -> set[str]:
    return {q.name for q in profile.scheduler.queues} | {p for f in profile.partition_families
                                                         for p in f.partitions}


def _directive_evidence(script: Script, profile: Profile, shared: set[str]
                        ) -> tuple[int, list[str]]:
    """The weight of the script's directives only this site would have, and what they are;
    (-1, ...) when the directives name another system. A queue several sites have (`shared`)
    says nothing."""
    sched = profile.scheduler
    queues = _queues(profile) - shared
    score, seen = 0, []
    for d in script.block_directives:
        if PREFIXES[d.prefix] != sched.dialect:
            continue
        for key, value in directive_items(d.body):
            system = re.search(r"(?:^|:)system=([A-Za-z0-9_.-]+)", value) \
                if key == "-l select" else None
            # the system resource the profile documents, or the machine's own name where
            # the guide shows none (`system=aurora`: a reader's clue, not a checked value)
            if system and system.group(1) not in (sched.system_resource, profile.name):
                return -1, [f"system={system.group(1)}"]
            if system:
                score += 3
                seen.append(f"system={system.group(1)}")
            elif key == "-l filesystems" and sched.filesystems:
                own = [fs for fs in re.split(r"[:,]", value)
                       if fs in sched.filesystems.valid and fs != "home"]
                score += 3 * len(own)
                seen += [f"filesystem {fs}" for fs in own]
            elif key in ("-q", "--partition", "-p") and value in queues and \
                    value not in _GENERIC:
                score += 2
                seen.append(f"queue {value}")
    return score, seen


@functools.lru_cache(maxsize=4)
def _profiles(names: tuple[str, ...]) -> tuple[list[Profile], set[str]]:
    """The sites' profiles (not the local ones) and the queue names more than one has."""
    profiles = [p for p in (load_profile(n).profile for n in names) if p.status != "local"]
    seen: set[str] = set()
    shared: set[str] = set()
    for profile in profiles:
        shared |= _queues(profile) & seen
        seen |= _queues(profile)
    return profiles, shared


# A submit command kept in a comment (`# qsub -l ... -q workq -l filesystems=gila ./job.sh`):
# the options the script is submitted with, as telling as its directives (round 18, after
# heldout-2026-11-28r's dl_scaling job on Sunspot, tuned on it)
_SUBMIT_COMMENT = re.compile(r"^\s*#+\s*(?:qsub|sbatch|bsub)\s+-")


def _code(script: Script) -> str:
    """The script without its comment lines (directives and the submit command a comment
    gives kept): what clues are read from."""
    return "\n".join(line for line in script.lines if not line.lstrip().startswith("#") or
                     line.lstrip().split(None, 1)[0] in PREFIXES or
                     _SUBMIT_COMMENT.match(line))


def _named_in_file_name(path: str) -> set[str]:
    """The words of the script's file name: one that is a site's profile name is a clue
    (`run_gpu_Sunspot.sh`, `lumi-launch.sh`, `submit_polaris.pbs`): users name scripts for the
    machine they wrote them for. Only the file's own name, not its folders, and a clue of
    weight 2, not strong: it decides a script whose code names no site (a launch script run
    inside a job), and breaks a tie, but never outweighs a directive or a path of another
    site."""
    return {w.lower() for w in re.split(r"[^A-Za-z0-9]+", os.path.basename(path)) if w}


def _named_in_comments(script: Script, sites: set[str]) -> str | None:
    """The one site whose name the script's comment lines use as a word (`# ALCF Polaris`,
    `# Source the Polaris environment setup`, `# ... does not work on LUMI`); None where they
    name none or several (`# ported from Polaris to Aurora`). A reader's clue of weight 2, as
    the file name: it decides a script whose code names no site, never outweighs a clue of
    the code. Round 10, after the launch scripts with no clue in their code of
    heldout-2026-11-27b..g."""
    named = set()
    comments = []
    for line in script.lines:
        stripped = line.lstrip()
        if not stripped.startswith("#") or stripped.split(None, 1)[0] in PREFIXES or \
                stripped.startswith("#!"):
            continue
        comments.append(stripped.lstrip("#"))
        named |= {w.lower() for w in re.findall(r"[A-Za-z]+", stripped)} & sites
    # a clue only one site has (a LUMI project number, /lus/flare), in a comment: a path or
    # account the author used (`# echo "/pfs/.../project_462000319/..."`), named as the site is
    text = "\n".join(comments)
    named |= {c.site for c in CLUES if c.weight >= 3 and not c.also and c.site in sites and
              c.pattern.search(text)}
    return next(iter(named)) if len(named) == 1 else None


def guess_site(script: Script) -> SiteGuess:
    """The site the script names, or the one its clues point to, with the clues used."""
    for named in (script.header.site, script.header.named_site):
        if named:
            return SiteGuess(named, ["named in the script"])
    dialects = {PREFIXES[d.prefix] for d in script.block_directives}
    code = _code(script)
    scores: dict[str, int] = {}
    clues: dict[str, list[str]] = {}
    strong: set[str] = set()  # sites with a clue only they have (weight 3, or a directive)
    profiles, shared = _profiles(tuple(site_names()))
    for profile in profiles:
        name = profile.name
        if dialects and profile.scheduler.dialect not in dialects:
            continue  # #SBATCH lines are no PBS site's
        score, seen = _directive_evidence(script, profile, shared)
        if score < 0:
            continue
        scores[name], clues[name] = score, seen
        if score >= 3:
            strong.add(name)
    for clue in CLUES:
        for site in (clue.site, *clue.also):
            if not site.startswith("other:") and site not in scores:
                continue
            if clue.pattern.search(code):
                scores[site] = scores.get(site, 0) + clue.weight
                clues.setdefault(site, []).append(clue.what)
                if clue.weight >= 3 and not clue.also:
                    strong.add(site)
        for site in clue.kin:
            if site in scores and clue.pattern.search(code):
                scores[site] += 1
                clues[site].append(f"{clue.what} (shared with {clue.site})")
    in_name = _named_in_file_name(script.path) & {p.name for p in profiles}
    for site in in_name:
        if site in scores:
            scores[site] += 2
            clues[site].append(f"the file name ({os.path.basename(script.path)})")
    commented = _named_in_comments(script, {p.name for p in profiles})
    if commented in scores:
        scores[commented] += 2
        clues[commented].append(f"a comment naming {commented}")
    ranked = sorted(((s, n) for n, s in scores.items() if s > 0), reverse=True)
    if not ranked or ranked[0][0] < 2:
        return SiteGuess(None, [], "the script names no site-specific directive, path, "
                         "module, launcher or host")
    best, name = ranked[0]
    # a rival: as much evidence, or a clue only it has where the best has none of its own
    rivals = [n for s, n in ranked[1:] if s >= best or n in strong and
              (name not in strong or s * 2 >= best)]
    # the file's name says one site and the code another (`train_llama_alcf_aurora.sh` asking
    # filesystems=eagle): which the author meant is for the user to say
    named = next(iter(in_name)) if len(in_name) == 1 else None
    if named is not None and named != name and named in scores and named not in rivals:
        rivals.append(named)
    if rivals or name.startswith("other:"):
        found = [f"{n.removeprefix('other:')}: {', '.join(clues[n])}" for n in [name, *rivals]]
        why = "its clues point to several sites" if rivals else \
            f"its clues point to {name.removeprefix('other:')}, which jobgen has no profile for"
        return SiteGuess(None, found, why)
    return SiteGuess(name, clues[name])


#: Characters of a script whose whole text is read for its site's clues: a longer one that
#: names no site in its head is refused before it is parsed whole.
MAX_GUESSED = 1 << 20


def head(text: str) -> str:
    """A script's first 20 lines and its directive block (up to the first command): where a
    script says its site, read first."""
    lines = text.split("\n")
    end = next((i for i, line in enumerate(lines) if line.strip()
                and not line.lstrip().startswith("#")), len(lines))
    return "\n".join(lines[:max(end, 20)])


def tell_site(text: str, path: str = "<script>") -> tuple[SiteGuess, Script | None]:
    """The one way lint tells a script's site without --site (`jobgen lint`, detect_site and
    the corpus measurements): from its head first, then, if that tells none and the script
    is of ordinary size, from the whole script. Returns the guess and the whole script when
    it was parsed (for the caller to reuse)."""
    guess = guess_site(parse_text(head(text), path))
    if guess.site is None and len(text) <= MAX_GUESSED:
        whole = parse_text(text, path)
        return guess_site(whole), whole
    return guess, None


def detect_site(script: Script) -> str | None:
    """The site the script names, or the one site its clues point to; None if unsure (told
    as `jobgen lint` tells it: tell_site)."""
    return tell_site(script.text, script.path)[0].site
