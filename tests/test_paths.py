"""Where forties keeps its files: the platform's user folders, and the variables that move
them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from forties import paths


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the XDG folders of Linux")
def test_saved_games_and_compiled_code_go_to_the_user_folders(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Saved games under $XDG_DATA_HOME (or ~/.local/share), the compiled code under
    $XDG_CACHE_HOME (or ~/.cache); $FORTIES_DATA moves the saved games."""
    monkeypatch.delenv("FORTIES_DATA", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert paths.data_dir() == tmp_path / "data" / "forties"
    assert paths.user_cache_dir() == tmp_path / "cache" / "forties" / "numba"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert paths.data_dir() == tmp_path / "home" / ".local" / "share" / "forties"
    assert paths.user_cache_dir() == tmp_path / "home" / ".cache" / "forties" / "numba"
    monkeypatch.setenv("FORTIES_DATA", str(tmp_path / "mine"))
    assert paths.data_dir() == tmp_path / "mine"


@pytest.mark.parametrize(("platform", "data", "cache"), [
    ("darwin", "Library/Application Support", "Library/Caches"),
    ("win32", "AppData/Local", "AppData/Local"),
])
def test_other_platforms_folders(platform: str, data: str, cache: str, tmp_path: Path,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """macOS keeps data and caches apart; Windows keeps both in %LOCALAPPDATA%."""
    monkeypatch.setattr(paths.sys, "platform", platform)
    monkeypatch.delenv("LOCALAPPDATA", raising=False)
    monkeypatch.setattr(paths.Path, "home", lambda: tmp_path)
    assert paths.user_dir("data") == tmp_path / data
    assert paths.user_dir("cache") == tmp_path / cache
