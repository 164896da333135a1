"""The end of a run for a person: the result line's gist on stderr, the profiled phases per
step (in-process, no training run: the inputs are a result line and profiler averages)."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from types import SimpleNamespace

from workloads.runtime.loop import RESULT_FIELDS, RESULT_KEYS, emit, summary
from workloads.runtime.profiling import phase_table


def _result(**changes):
    base = dict.fromkeys(RESULT_KEYS)
    base.update(app="gpt", world_size=4, samples_per_sec=812.5, samples_per_sec_per_rank=203.1,
                unit="tokens", units_per_sec=832000.0, step_time_ms_p50=39.4, mfu=0.4123,
                mfu_note="x", first_loss=10.98, final_loss=6.5, timed_steps=90,
                elapsed_s=44.3, precision="bf16", device="cuda")
    base.update(changes)
    return base


def test_emit_writes_the_json_line_then_a_summary_on_stderr():
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        emit(_result())
    assert json.loads(out.getvalue()) == _result()
    lines = err.getvalue().splitlines()
    assert lines == [
        "[gpt] done: 812.5 samples/s on 4 rank(s) (203.1 per rank), 8.32e+05 tokens/s",
        "[gpt] step 39.4 ms median; MFU 41.2%",
        "[gpt] loss 10.98 -> 6.5; 90 timed step(s) in 44.30 s (bf16 on cuda)",
    ]


def test_the_summary_says_why_there_is_no_mfu_and_names_the_trace():
    text = summary(_result(mfu=None, mfu_note="no MFU on the CPU: no peak in the table (it "
                           "depends on the cores)", profile_trace="p/rank-0.1.pt.trace.json"))
    assert "no MFU on the CPU: no peak in the table\n" in text
    assert text.endswith("[gpt] profile trace: p/rank-0.1.pt.trace.json\n")
    text = summary(_result(mfu=None, mfu_note="peak unknown for this GPU (not in the table)"))
    assert "; no MFU (peak unknown for this GPU)\n" in text
    assert "- -> -" in summary(_result(first_loss=None, final_loss=None))


def test_every_result_key_has_a_description():
    assert len(RESULT_FIELDS) == len(RESULT_KEYS) == len(set(RESULT_KEYS))
    assert all(text.strip() for _, text in RESULT_FIELDS)


def _avg(key: str, ms: float, count: int = 1):
    return SimpleNamespace(key=key, cpu_time_total=ms * 1000.0, count=count)


def test_phase_table_gives_host_ms_per_step_and_each_phases_share():
    averages = [_avg("ProfilerStep*", 2000.0, count=10), _avg("data", 20.0),
                _avg("forward", 900.0), _avg("backward", 800.0), _avg("optimizer", 150.0),
                _avg("aten::mm", 500.0)]
    lines = phase_table(averages, 3, 10, 20).splitlines()
    assert lines[0] == "profile of rank 3, steps 10-19: host ms per step by phase"
    rows = [ln.split() for ln in lines[1:]]
    assert rows == [["data", "2.00", "ms", "1.0%"], ["forward", "90.00", "ms", "45.0%"],
                    ["backward", "80.00", "ms", "40.0%"], ["optimizer", "15.00", "ms", "7.5%"],
                    ["step", "200.00", "ms", "(the", "whole", "step)"]]
