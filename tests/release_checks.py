"""Checks shared by the tests of the committed model releases (ToyCLIP, ToyITM): a damaged copy is refused by its
SHA-256, a missing or unreadable file is a clear error, an intact copy loads, and a missing default release names
the missing file. Import from a test module in `tests/` with `from release_checks import ...`."""
import json
import shutil
from pathlib import Path
from typing import Callable

import pytest

from vlconcepts.core import ModelSpecError
from vlconcepts.models import load_model


def check_release_is_verified(tmp_path: Path, release: Path, sha256: str, load_file: Callable, scheme: str):
    """A copy of `release` with one byte flipped is refused by `load_file(path, sha256=...)` and, with a manifest beside
    it, by `load_model('<scheme>:<copy>')`; an absent or unreadable file is a clear error. Returns what
    `load_file` makes of an intact copy."""
    damaged = tmp_path / release.name
    data = bytearray(release.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    with pytest.raises(ModelSpecError, match="SHA-256 mismatch"):
        load_file(damaged, sha256=sha256)
    damaged.with_suffix(".json").write_text(json.dumps({"file": damaged.name, "sha256": sha256}))
    with pytest.raises(ModelSpecError, match="SHA-256 mismatch"):
        load_model(f"{scheme}:{damaged}", device="cpu")
    with pytest.raises(ModelSpecError, match="not found"):
        load_model(f"{scheme}:{tmp_path}/absent.pt", device="cpu")
    (tmp_path / "garbage.pt").write_bytes(b"not a checkpoint")
    with pytest.raises(ModelSpecError, match="could not be read"):
        load_model(f"{scheme}:{tmp_path}/garbage.pt", device="cpu")
    shutil.copy(release, tmp_path / "intact.pt")
    return load_file(tmp_path / "intact.pt", sha256=sha256)


def check_missing_default_release(monkeypatch, tmp_path: Path, module, scheme: str, stem: str):
    """With `module.assets_dir` pointing at an empty folder, `load_model('<scheme>:default')` says the manifest
    `<stem>.json` is missing; with only the manifest there, that the checkpoint is missing."""
    monkeypatch.setattr(module, "assets_dir", lambda: tmp_path)
    with pytest.raises(ModelSpecError, match="manifest is missing"):
        load_model(f"{scheme}:default", device="cpu")
    (tmp_path / f"{stem}.json").write_text(json.dumps({"file": f"{stem}.pt", "sha256": "0" * 64}))
    with pytest.raises(ModelSpecError, match="checkpoint is missing"):
        load_model(f"{scheme}:default", device="cpu")
