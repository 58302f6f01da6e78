"""Atomic, non-clobbering output files.

Every file rnglab writes goes through :func:`atomic_write`: the data is written
to a temporary file in the target's folder and then put in place in one step,
so a reader never sees half a file. Without ``force`` the last step is a hard
link, which the operating system refuses when the name exists, so an existing
file is never replaced, even by a writer racing with this one. Files get the
permissions the umask asks for (``0666 & ~umask``), as ``open`` would give them.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def check_writable(path: str | os.PathLike, force: bool = False) -> Path:
    """Check, before any work, that ``path`` can be written; return it as a ``Path``.

    The folder must exist and accept new files (tried with a temporary file, which
    also catches read-only file systems and ``/proc``), ``path`` must not be a
    folder, and it must not exist unless ``force``.

    Raises
    ------
    ValueError
        Naming the rule that ``path`` breaks.
    """
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{path} is a directory, not a file")
    if path.exists() and not force:
        raise ValueError(f"{path} already exists; choose another name or pass --force to overwrite it")
    check_folder_writable(path.parent)
    return path


def check_folder_writable(folder: str | os.PathLike) -> Path:
    """Check that ``folder`` exists and that a file can be created in it; return it."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"folder {folder} does not exist; create it first")
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise ValueError(f"cannot write in folder {folder}: {error.strerror}") from None
    return folder


def atomic_write(path: str | os.PathLike, data: bytes | str, force: bool = False) -> Path:
    """Write ``data`` to ``path`` atomically (temporary file, then link or rename).

    Missing parent folders are created. Without ``force`` the file is put in
    place with a hard link, which fails if ``path`` exists, so of several
    writers racing for one name exactly one succeeds.

    Raises
    ------
    ValueError
        If ``path`` exists and ``force`` is false, or is a folder.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path = check_writable(path, force)
    payload = data.encode() if isinstance(data, str) else data
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
        os.chmod(temporary, 0o666 & ~_umask())
        _put_in_place(temporary, path, force)
    finally:
        Path(temporary).unlink(missing_ok=True)
    return path


def _put_in_place(temporary: str, path: Path, force: bool) -> None:
    if force:
        os.replace(temporary, path)
        return
    try:
        os.link(temporary, path)
    except FileExistsError:
        raise ValueError(f"{path} already exists; choose another name or pass --force to overwrite it") from None


def _umask() -> int:
    """The process's umask (read by setting it and putting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def folder_permissions() -> int:
    """The permissions ``mkdir`` gives a new folder under the process's umask, ``0777 & ~umask`` (for a folder
    made by :func:`tempfile.mkdtemp`, always 0700, and then kept)."""
    return 0o777 & ~_umask()


def write_record(handle: int, line: str, name: str) -> None:
    """Append one line to the file open (for appending) as descriptor ``handle``: one ``write``, then ``fsync``.

    A journal's record is whole or absent: the line goes out in one ``write``
    on a file opened for appending, and ``fsync`` returns once it is on the disk,
    so a crash can leave at most the last line cut short (readers drop a final
    line without its newline: :func:`cut_torn_record`).

    Raises
    ------
    ValueError
        When the system refuses the write or the flush (a full disk, an I/O
        error), naming the file, ``name``, and the system's reason.
    """
    payload = (line.rstrip("\n") + "\n").encode()
    try:
        os.write(handle, payload)
        os.fsync(handle)
    except OSError as error:
        raise ValueError(f"cannot write to {name}: {error.strerror}") from None


def cut_torn_record(path: str | os.PathLike) -> list[str]:
    """The complete lines of an append-only file, after cutting off a last line that a crash left without newline."""
    data = Path(path).read_bytes()
    whole = data[:data.rfind(b"\n") + 1]
    if len(whole) < len(data):
        os.truncate(path, len(whole))
    return whole.decode().splitlines()
