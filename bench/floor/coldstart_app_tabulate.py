"""Issue 14's cold-start floor for the table output: the same app, with ``import tabulate`` added."""
import runpy
from pathlib import Path

import tabulate  # noqa: F401  (what the table output must load)

if __name__ == "__main__":
    runpy.run_path(str(Path(__file__).with_name("coldstart_app.py")), run_name="__main__")
