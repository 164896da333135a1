"""The built documentation site in a real browser (Debian's Chromium, headless) at 1280 px:
no page's content, table or code block is cut off behind a scroll bar, no internal link is
broken, and no Markdown link shows as text (a link inside a code span).

One Chromium start for the whole site: a harness page served with the site holds every page
in a 1280 px iframe; its script measures each once loaded and writes the findings into the
DOM, which `chromium --dump-dom` prints. Skips with the reason when Chromium is missing
(`apt-get install chromium`; tools/test-suite.sh does).
"""

from __future__ import annotations

import html
import json
import os
import shutil
import subprocess
import sys
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote

import pytest
from helpers import ROOT

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
WIDTH = 1280

# Runs in the harness once every iframe has loaded: per page, what is cut off and the links.
MEASURE = r"""
function measure(frame) {
  const doc = frame.contentDocument, win = frame.contentWindow;
  const out = {page: frame.dataset.page, content: null, tables: [], code: [], links: [],
               literal: []};
  const content = doc.querySelector('.md-content');
  if (!content) { out.content = 'no .md-content'; return out; }
  if (content.scrollWidth > content.clientWidth + 1)
    out.content = content.scrollWidth + ' > ' + content.clientWidth;
  const cut = el => el.scrollWidth > el.clientWidth + 1;
  content.querySelectorAll('table').forEach((t, i) => {
    const wrap = t.closest('.md-typeset__scrollwrap') || t;
    if (cut(t) || cut(wrap) || t.getBoundingClientRect().right >
        content.getBoundingClientRect().right + 1)
      out.tables.push(i + ': ' + (t.querySelector('th') || t).textContent.trim().slice(0, 40));
  });
  content.querySelectorAll('pre').forEach((p, i) => {
    const code = p.querySelector('code') || p;
    if (cut(code) || cut(p)) out.code.push(i + ': ' + code.textContent.trim().slice(0, 60));
  });
  content.querySelectorAll('code').forEach(c => {
    if (/\[[^\]\n]+\]\([^)\s]+\)/.test(c.textContent)) out.literal.push(c.textContent);
  });
  doc.querySelectorAll('a[href]').forEach(a => {
    const url = new URL(a.getAttribute('href'), doc.baseURI);
    if (url.origin === win.location.origin) out.links.push(url.pathname);
  });
  return out;
}
window.addEventListener('load', () => {
  const found = [...document.querySelectorAll('iframe')].map(measure);
  document.body.setAttribute('data-found', JSON.stringify(found));
});
"""


def _pages(site: Path) -> list[str]:
    """Every built page's URL path ('/', '/render/', ...)."""
    rels = (p.relative_to(site).parent for p in site.rglob("index.html")
            if "assets" not in p.parts)
    return sorted("/" if str(r) == "." else f"/{r.as_posix()}/" for r in rels)


def _exists(site: Path, path: str) -> bool:
    target = site / unquote(path).lstrip("/")
    return target.is_file() or (target / "index.html").is_file()


@pytest.fixture(scope="module")
def found(tmp_path_factory) -> list[dict]:
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (apt-get install chromium; tools/test-suite.sh "
                    "does): the docs layout test needs a real browser")
    tmp = tmp_path_factory.mktemp("docs-browser")
    site = tmp / "site"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    build = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                            "--site-dir", str(site)], cwd=ROOT, env=env, capture_output=True,
                           text=True, timeout=300)
    assert build.returncode == 0, build.stderr[-3000:]
    pages = _pages(site)
    assert len(pages) > 20, pages
    frames = "".join(f'<iframe data-page="{p}" src="{p}" width="{WIDTH}" height="800">'
                     "</iframe>" for p in pages)
    (site / "jobgen-browser-check.html").write_text(
        f"<!doctype html><html><body style='margin:0'>{frames}<script>{MEASURE}</script>"
        "</body></html>", encoding="utf-8")
    handler = partial(_QuietHandler, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/jobgen-browser-check.html"
        res = subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--no-first-run", f"--user-data-dir={tmp / 'profile'}",
             f"--window-size={WIDTH + 40},900", "--virtual-time-budget=60000", "--dump-dom",
             url], capture_output=True, text=True, timeout=300)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
    marker = 'data-found="'
    assert marker in res.stdout, (res.returncode, res.stderr[-3000:])
    data = json.loads(html.unescape(res.stdout.split(marker, 1)[1].split('"', 1)[0]))
    return [dict(page, site=str(site)) for page in data]


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base's name
        pass


@pytest.mark.slow
def test_no_page_content_table_or_code_block_is_cut_off_at_1280_px(found):
    cut = {f["page"]: {k: f[k] for k in ("content", "tables", "code") if f[k]} for f in found}
    cut = {page: what for page, what in cut.items() if what}
    assert not cut, json.dumps(cut, indent=1)[:6000]


@pytest.mark.slow
def test_no_internal_link_is_broken_and_no_link_shows_as_text(found):
    site = Path(found[0]["site"])
    broken = {f["page"]: sorted({p for p in f["links"] if not _exists(site, p)})
              for f in found}
    broken = {page: links for page, links in broken.items() if links}
    assert not broken, broken
    literal = {f["page"]: f["literal"] for f in found if f["literal"]}
    assert not literal, literal
    assert sum(len(f["links"]) for f in found) > 500  # the links were read
