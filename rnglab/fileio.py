"""Atomic, non-clobbering output files.

Every file rnglab writes goes through :func:`atomic_write`: the data is written
to a temporary file in the target's folder and renamed over the target in one
step, so a reader never sees half a file, and an existing file is never
replaced unless the caller says so.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def check_writable(path: str | os.PathLike, force: bool = False) -> Path:
    """Refuse to overwrite an existing file unless ``force``; return the path."""
    path = Path(path)
    if path.exists() and not force:
        raise ValueError(f"{path} already exists; choose another name or pass --force to overwrite it")
    if path.is_dir():
        raise ValueError(f"{path} is a directory, not a file")
    return path


def atomic_write(path: str | os.PathLike, data: bytes | str, force: bool = False) -> Path:
    """Write ``data`` to ``path`` atomically (temporary file, then rename).

    Raises
    ------
    ValueError
        If ``path`` exists and ``force`` is false.
    """
    path = check_writable(path, force)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode() if isinstance(data, str) else data
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path
