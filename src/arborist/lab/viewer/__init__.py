"""The run viewer: a run directory (or a comparison, or a sweep) as one self-contained HTML page.

It reads the run directory's files as JSON and imports nothing of the
engine, so a run copied to another machine views the same. Every piece of
document and answer text reaches the page as JSON data and is put on screen
with `textContent`: a document holding `<script>` stays text.
"""

from arborist.lab.viewer.load import ViewerError, load_repair_dir, load_run, load_sweep_dir
from arborist.lab.viewer.page import compare_page, index_page, repair_page, run_page, sweep_page

__all__ = ["ViewerError", "compare_page", "index_page", "load_repair_dir", "load_run", "load_sweep_dir",
           "repair_page", "run_page", "sweep_page"]
