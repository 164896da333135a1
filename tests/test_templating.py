"""Kept compiled templates: the same text as Jinja2, without importing Jinja2 when warm."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from helpers import ROOT, plan_for

from jobgen.profiles.load import site_names
from jobgen.shell import checked_output
from jobgen.text import render as render_mod
from jobgen.text.render import FILTERS, TEMPLATE_FOR, TESTS, compiled, environment, templates_dir
from jobgen.text.templating import Fallback, compiled_environment


@pytest.fixture(autouse=True)
def fresh_runtime():
    render_mod._COMPILED.clear()
    yield
    render_mod._COMPILED.clear()


@pytest.mark.parametrize("site", site_names())
@pytest.mark.parametrize("extra", [{}, {"app": "gpt", "ranks_per_node": 1}])
def test_kept_code_writes_what_jinja2_writes(site, extra):
    kw = {"nodes": 1 if site.startswith("local") else 2, **extra}
    plan = plan_for(site, **kw)
    name = TEMPLATE_FOR[plan.dialect]
    fast = compiled()
    assert fast is not None
    assert fast.get_template(name).render(plan=plan) == \
        environment().get_template(name).render(plan=plan)


def test_a_warm_render_does_not_import_jinja2():
    args = "['render', '--site', 'polaris', '--app', 'ffn', '-A', 'p']"
    code = ("import sys, io; from jobgen.cli.main import _fast_render; sys.stdout = io.StringIO(); "
            f"_fast_render({args}); sys.stdout = sys.__stdout__; print('jinja2' in sys.modules)")
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    again = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert first.stdout.strip() == "True"  # the first render compiles with Jinja2
    assert again.stdout.strip() == "False", again.stderr


def _templates(tmp_path, extra: str):
    directory = tmp_path / "templates"
    shutil.copytree(templates_dir(), directory)
    (directory / "extra.j2").write_text(extra)
    return directory


def _jinja_for(directory):
    import jinja2

    def make():
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(directory)),
                                 undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                                 trim_blocks=True, lstrip_blocks=True, autoescape=False,
                                 finalize=checked_output)
        env.filters.update(FILTERS)
        return env
    return make


def test_an_undefined_value_is_left_to_jinja2(tmp_path):
    directory = _templates(tmp_path, "{{ plan.nosuchthing }}\n")
    env = compiled_environment(directory, _jinja_for(directory), FILTERS, TESTS, checked_output)
    with pytest.raises(Fallback):
        env.get_template("extra.j2").render(plan=plan_for("polaris"))


def test_templates_needing_more_than_the_runtime_are_not_kept(tmp_path):
    directory = _templates(tmp_path, "{% for x in plan.signals %}{{ loop.index }}{% endfor %}\n")
    assert compiled_environment(directory, _jinja_for(directory), FILTERS, TESTS,
                                checked_output) is None


def test_an_edited_template_is_compiled_again(tmp_path):
    directory = _templates(tmp_path, "one\n")
    make = _jinja_for(directory)
    assert compiled_environment(directory, make, FILTERS, TESTS, checked_output) \
        .get_template("extra.j2").render() == "one\n"
    (directory / "extra.j2").write_text("two\n")
    assert compiled_environment(directory, make, FILTERS, TESTS, checked_output) \
        .get_template("extra.j2").render() == "two\n"


def _example_requests():
    import importlib.util

    spec = importlib.util.spec_from_file_location("regenerate", ROOT / "examples" /
                                                  "regenerate.py")
    regen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(regen)
    reqs = [dict(site=s, app=a, nodes=1 if s.startswith("local") else 2,
                 account=None if s.startswith("local") else "MYPROJECT",
                 **regen.SITE_OPTIONS.get(s, {}))
            for s in site_names() for a in ("cosmictagger", "gpt")]
    return reqs + [{"account": "MYPROJECT", **kw} for _, kw in regen.EXTRAS]


def test_profile_records_plan_and_render_like_the_model():
    """A warm `jobgen render` reads the profile as records (jobgen.profiles.records), not the
    model's dataclasses: every example request gives the same plan text either way."""
    from jobgen.plan.build import Request, build_plan
    from jobgen.profiles.load import load_profile
    from jobgen.profiles.records import ProfileRecord
    from jobgen.text.render import render

    for kw in _example_requests():
        model = load_profile(kw["site"])  # validates and fills the cache
        light = load_profile(kw["site"], light=True)
        assert isinstance(light.profile, ProfileRecord) and light.digest == model.digest
        assert light.profile.devices_per_node == model.profile.devices_per_node
        req = Request(**kw)
        assert render(build_plan(light, req)) == render(build_plan(model, req)), kw
