"""Spot set 2026-11-28o: precision and recall of lint on 67 of the 93 scripts, one reader per
part (blind-<part>.yaml, then judged-<part>.yaml); lint's findings in the folder given
(lint-frozen: tag spot-o-frozen, c48c84bf, blind; lint-now: after the fixes, not blind).

    python3 measure_o.py lint-frozen
"""

from __future__ import annotations

import collections
import math
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
PARTS = ("summitA", "summitB", "other")


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, 100 * (c - h) / d), min(100.0, 100 * (c + h) / d))


def pct(k: int, n: int) -> str:
    if not n:
        return f"{k}/0"
    lo, hi = wilson(k, n)
    return f"{k}/{n} = {100 * k / n:.0f}% ({lo:.0f}-{hi:.0f})"


def findings_in(folder: Path) -> dict[str, list[tuple[str, int, str]]]:
    out: dict[str, list[tuple[str, int, str]]] = collections.defaultdict(list)
    for p in folder.glob("*.txt"):
        site, name = p.stem.split("__", 1)
        for row in p.read_text().splitlines():
            parts = row.split("\t")
            if len(parts) >= 3 and parts[1] != "REFUSED":
                out[f"{site}/{name}"].append((parts[1], int(parts[0]), parts[2]))
    return out


def main(folder: str) -> None:
    findings = findings_in(HERE / folder)
    prec: collections.Counter[tuple[str, str]] = collections.Counter()
    rec: collections.Counter[tuple[str, str]] = collections.Counter()
    missed, falses = [], []
    for part in PARTS:
        if not (HERE / f"blind-{part}.yaml").exists():
            print(f"part {part}: not read (no blind-{part}.yaml)")
            continue
        blind = yaml.safe_load((HERE / f"blind-{part}.yaml").read_text())["scripts"]
        judged = yaml.safe_load((HERE / f"judged-{part}.yaml").read_text()) or {}
        judged = judged.get("scripts", judged)
        for f, lab in blind.items():
            site = f.split("/")[0]
            given = {rule for rule, _, _ in findings.get(f, [])}
            for v in (lab or {}).get("violations") or []:
                hit = bool(set(v.get("rules") or []) & given)
                rec[(site, "found" if hit else "missed")] += 1
                if not hit:
                    missed.append((f, v.get("id"), v.get("kind"),
                                   v.get("rules") or v.get("proposed")))
        for f, entries in judged.items():
            site = f.split("/")[0]
            now = set(findings.get(f, []))
            for x in entries or []:
                if (x.get("rule"), x.get("line"), x.get("severity")) not in now:
                    continue  # (no longer given)
                t = x.get("true", x.get(True))
                key = "true" if t is True else "false" if t is False else "unsure"
                prec[(site, key)] += 1
                if key == "false":
                    falses.append((f, x.get("rule"), x.get("line"), x.get("why")))
    total: collections.Counter[str] = collections.Counter()
    for site in sorted({s for s, _ in prec} | {s for s, _ in rec}):
        t, fl, u = prec[(site, "true")], prec[(site, "false")], prec[(site, "unsure")]
        fo, mi = rec[(site, "found")], rec[(site, "missed")]
        total.update({"t": t, "f": fl, "u": u, "fo": fo, "mi": mi})
        print(f"{site:8} precision {pct(t, t + fl)} (unsure {u}), recall {pct(fo, fo + mi)}")
    print(f"{'all':8} precision {pct(total['t'], total['t'] + total['f'])} "
          f"(unsure {total['u']}), recall {pct(total['fo'], total['fo'] + total['mi'])}")
    for m in missed:
        print("missed:", *m)
    for x in falses:
        print("false:", *x)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "lint-frozen")
