"""settle is typed (issue 13): ``mypy --strict`` finds no error in the package.

The settings are ``[tool.mypy]`` in ``pyproject.toml`` (strict, the files, the pydantic plugin); the
region hand models are classes the type checker reads (``settle/rules/<key>/model.py``).
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from settle.model import hand_model
from settle.rules.registry import get_region

ROOT = Path(__file__).resolve().parent.parent
BUILT_IN = ("wuhan", "wuxue", "rushan")


def test_mypy_strict_finds_no_error() -> None:
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "settle"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    if done.returncode != 0:
        pytest.fail(f"mypy --strict settle (exit {done.returncode}):\n{done.stdout[-20000:]}{done.stderr[-5000:]}",
                    pytrace=False)


@pytest.mark.parametrize("key", BUILT_IN)
def test_the_written_out_region_models_are_what_hand_model_builds(key: str) -> None:
    """Each built-in region writes its models out as classes (``settle/rules/<key>/model.py``);
    they are the classes :func:`settle.model.hand_model` makes at run time for a region outside
    settle: same names, fields and JSON Schema."""
    region = get_region(key)
    name = key.capitalize()
    written = importlib.import_module(f"settle.rules.{key}.model")
    vocab = importlib.import_module(f"settle.rules.{key}.vocab")
    assert region.hand_model is getattr(written, f"{name}Hand")
    built = hand_model(name, region.options, getattr(vocab, f"{name}Fan"), getattr(vocab, f"{name}Kong"))
    assert list(built.model_fields) == list(region.hand_model.model_fields)
    assert (json.dumps(built.model_json_schema(), ensure_ascii=False)
            == json.dumps(region.hand_model.model_json_schema(), ensure_ascii=False))
