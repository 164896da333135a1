"""The portability study as a workflow: sweep (scripts + manifest), submit, collect, report.

`jobgen sweep` plans and renders one script per point and repeat through the same plan and
render code as `jobgen render`; `manifest.json` in the sweep directory is the one record the
other steps read and update. Nothing here is imported by `jobgen render`.
"""
