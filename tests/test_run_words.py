"""The run's own messages under ``--lang zh`` (issue 16 #9): an errors file that is the output, a disk
full (exit 4), Ctrl-C and SIGTERM (130/143); the English as it was."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import settle.cli as cli
from settle.cli import Lang, Stopped, _register_commands, app, outside_failure

runner = CliRunner()
FIXTURE = Path(__file__).parent.parent / "fixtures" / "wuhan" / "worked_example.yaml"


def test_errors_file_that_is_the_output(tmp_path: Path) -> None:
    _register_commands()
    out = str(tmp_path / "out.jsonl")
    args = ["batch", str(FIXTURE), "-f", "jsonl", "-o", out, "--errors", out]
    english = runner.invoke(app, args)
    chinese = runner.invoke(app, [*args, "--lang", "zh"])
    assert english.exit_code == chinese.exit_code == 2
    assert english.stderr == f"error: the errors file {out} is the output {out}: give another --errors\n"
    assert chinese.stderr == f"error: 错误文件 {out} 就是输出文件 {out}：请换一个 --errors\n"
    assert not Path(out).exists()  # refused before anything is written (issue 15 #11)


@pytest.mark.parametrize(("lang", "line"), [
    (None, "error: cannot write the output out.jsonl: the disk is full\n"),
    (Lang("zh"), "error: 无法写入输出 out.jsonl：磁盘已满\n"),
])
def test_disk_full(lang: Lang | None, line: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(typer.Exit) as stop:
        outside_failure(OSError(errno.ENOSPC, "No space left on device", "out.jsonl"), lang=lang)
    assert stop.value.exit_code == 4
    assert capsys.readouterr().err == line


@pytest.mark.parametrize(("argv", "signum", "status", "words"), [
    (["settle", "batch", "x.jsonl"], cli.signal.SIGINT, 130, "interrupted"),
    (["settle", "batch", "x.jsonl"], cli.signal.SIGTERM, 143, "terminated"),
    (["settle", "batch", "x.jsonl", "--lang", "zh"], cli.signal.SIGINT, 130, "已中断"),
    (["settle", "session", "--lang=zh", "s.yaml"], cli.signal.SIGTERM, 143, "已终止"),
    (["settle", "batch", "--lang", "en", "zh"], cli.signal.SIGTERM, 143, "terminated"),
])
def test_stop_words(argv: list[str], signum: int, status: int, words: str,
                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli.sys, "argv", argv)
    monkeypatch.setattr(cli, "_SIGNALLED", None)  # set by _stop: put back for the tests after
    with pytest.raises(Stopped) as stop:
        cli._stop(signum, None)
    assert (stop.value.status, stop.value.words) == (status, words)


@pytest.mark.parametrize(("signum", "status"), [(cli.signal.SIGINT, 130), (cli.signal.SIGTERM, 143)])
def test_a_stop_that_c_code_turned_into_its_own_error_is_still_the_stop(
        signum: int, status: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while pydantic-core builds a region's schema at its first hand: pydantic-core catches the
    Stopped raised by the handler and raises ``SchemaError: ... Stopped: interrupted`` instead; the run
    still ends as interrupted (130) or terminated (143), not as a bug (exit 1: "1 only for a bug", issue
    15 #13).  A RuntimeError stands in for the SchemaError here."""
    monkeypatch.setattr(cli.sys, "argv", ["settle", "batch", "x.jsonl"])
    monkeypatch.setattr(cli, "_SIGNALLED", None)

    def schema_built_while_stopped() -> None:
        try:
            cli._stop(signum, None)
        except Stopped as stop:  # what C code calling back into Python does with it
            raise RuntimeError(f"Error building validator: Stopped: {stop}") from None

    with pytest.raises(Stopped) as stop:
        cli.guarded(schema_built_while_stopped)
    assert stop.value.status == status


def test_an_error_without_a_stop_is_still_a_bug(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """No signal came: an unexpected error is a bug, exit 1, as before."""
    monkeypatch.setattr(cli, "_SIGNALLED", None)
    monkeypatch.delenv("SETTLE_DEBUG", raising=False)

    def broken() -> None:
        raise RuntimeError("boom")

    with pytest.raises(typer.Exit) as stop:
        cli.guarded(broken)
    assert stop.value.exit_code == 1
    assert capsys.readouterr().err.startswith("internal error: RuntimeError: boom")
