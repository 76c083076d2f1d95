"""Issue 14's cold-start floor: one typer command reads a hand with PyYAML's C loader, validates it."""
import json
from typing import Any

import typer
import yaml
from pydantic import TypeAdapter
from typing_extensions import TypedDict


class Hand(TypedDict, total=False):
    region: str
    players: list[str] | dict[str, Any]
    dealer: str
    win: dict[str, Any]


def main(path: str) -> None:
    with open(path, encoding="utf-8") as handle:
        data = yaml.load(handle, Loader=yaml.CSafeLoader)
    print(json.dumps(TypeAdapter(Hand).validate_python(data), ensure_ascii=False))


if __name__ == "__main__":
    typer.run(main)
