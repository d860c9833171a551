"""Files read and written safely (core): one place for what the file system may do to a run.

Reading: :func:`open_regular` opens only a regular file, and never blocks doing so
(a FIFO or a device such as ``/dev/zero`` is refused before a byte is read);
:func:`sniff_encoding` tells a UTF-8 file (with or without a byte order mark)
from one in UTF-16 or UTF-32, which ssbg refuses with that reason instead of
reading it as garbage or as nothing.

Writing: every file appears whole or not at all.  :func:`atomic_write` writes
beside its target and renames into place (``os.replace``); an
:class:`OutputSet` stages several files that way and swaps them in together at
:meth:`OutputSet.commit`, with SIGINT and SIGTERM held off while the renames
run, so a run that fails, is interrupted or is terminated leaves the previous
set as it was and no partial file (SIGTERM, whose default would end the
process with the staged files left behind, raises :class:`Terminated` while a
set is open).  :func:`check_writable` tells before a long run starts that its outputs
cannot be written.  Every file-system error is an
:class:`~ssbg.errors.OutputError` naming the path.

Examples
--------
>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> with OutputSet() as out:
...     _ = out.temp(d / "a.txt").write_text("new a")
...     _ = out.temp(d / "b.txt").write_text("new b")
...     out.commit()
>>> sorted(p.name for p in d.iterdir()), (d / "a.txt").read_text()
(['a.txt', 'b.txt'], 'new a')
>>> with OutputSet() as out:  # interrupted, or failed, before the commit
...     _ = out.temp(d / "a.txt").write_text("half")
...     raise RuntimeError("disk full")
Traceback (most recent call last):
...
RuntimeError: disk full
>>> sorted(p.name for p in d.iterdir()), (d / "a.txt").read_text()
(['a.txt', 'b.txt'], 'new a')
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import signal
import stat
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

from ssbg.errors import OutputError, output_error

__all__ = [
    "OutputSet",
    "Terminated",
    "atomic_write",
    "check_outputs",
    "check_writable",
    "open_regular",
    "read_regular",
    "sniff_encoding",
]

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _kind(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def open_regular(path: str | Path) -> BinaryIO:
    """Open a regular file for binary reading; ``OSError`` (``EINVAL``, naming what it is) otherwise.

    The file is opened non-blocking and checked on its descriptor, so a FIFO
    without a writer cannot hang the call and a path swapped after a check
    cannot slip through.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, f"not a regular file ({_kind(mode)})", str(path))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: str | Path, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (:func:`open_regular`); ``OSError``
    (``EFBIG``) for a larger one, found after reading ``limit + 1`` bytes, never the whole file."""
    with open_regular(path) as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit} bytes", str(path))
    return data


_UTF32 = ((b"\xff\xfe\x00\x00", "UTF-32 (little endian)"), (b"\x00\x00\xfe\xff", "UTF-32 (big endian)"))
_UTF16 = ((b"\xff\xfe", "UTF-16 (little endian)"), (b"\xfe\xff", "UTF-16 (big endian)"))
UTF8_BOM = b"\xef\xbb\xbf"


def sniff_encoding(head: bytes) -> tuple[int, str | None]:
    """How a file's first bytes say it is encoded: ``(bytes to skip, None)`` for UTF-8 (3 for its byte
    order mark), ``(0, name)`` for UTF-16 or UTF-32 (marked, or told by the zero bytes around the first
    ASCII character of a JSON or XML file, as RFC 4627 tells them).

    >>> sniff_encoding(b'\\xef\\xbb\\xbf[{"a": 1}]'), sniff_encoding('[{"a"'.encode("utf-16-le"))
    ((3, None), (0, 'UTF-16 (little endian)'))
    """
    if head.startswith(UTF8_BOM):
        return 3, None
    for mark, name in (*_UTF32, *_UTF16):
        if head.startswith(mark):
            return 0, name
    if len(head) >= 4:
        if head[0] == head[1] == head[2] == 0 and head[3]:
            return 0, "UTF-32 (big endian)"
        if head[0] and head[1] == head[2] == head[3] == 0:
            return 0, "UTF-32 (little endian)"
    if len(head) >= 2:
        if head[0] == 0 and head[1]:
            return 0, "UTF-16 (big endian)"
        if head[0] and head[1] == 0:
            return 0, "UTF-16 (little endian)"
    return 0, None


# --------------------------------------------------------------------------- writing


def _sibling(target: Path, tag: str) -> Path:
    return target.with_name(f".{target.name}.{tag}-{secrets.token_hex(4)}")


def check_writable(folder: str | Path) -> Path:
    """Create ``folder`` (and its parents) and prove a file can be written there, before a long run
    starts; :class:`~ssbg.errors.OutputError` naming the folder otherwise."""
    path = Path(folder)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise OutputError(f"cannot write into {path}: it is a file, not a folder", reason="not_a_directory",
                          path=str(path), detail="not a directory") from None
    except OSError as exc:
        raise output_error(exc, str(path), "create the folder") from None
    probe = _sibling(path / "probe", "ssbg-probe")
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        with contextlib.suppress(OSError):
            probe.unlink()
        raise output_error(exc, str(path), "write into") from None
    return path


def _identity(path: Path) -> tuple[str, tuple[int, int] | None]:
    """Where a path leads (links and ``..`` resolved) and, for a file that exists, its device and inode."""
    try:
        info = os.stat(path)
        inode: tuple[int, int] | None = (info.st_dev, info.st_ino)
    except OSError:
        inode = None
    return os.path.realpath(path), inode


def check_outputs(outputs: Iterable[str | Path], inputs: Iterable[str | Path | None] = ()) -> None:
    """Refuse, before a record is read, outputs that cannot be what they say: a folder, a FIFO, a device or a
    socket (never replaced by a file: ``is_a_directory``, ``not_a_regular_file``), a file the run reads
    (``output_is_input``: the same path, link or inode) or two outputs that are one file (``outputs_collide``).

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> check_outputs([d / "v.csv", d / "v.html"], [d / "in.csv"])
    >>> check_outputs([d / "v.csv", d / "sub" / ".." / "v.csv"])
    Traceback (most recent call last):
    ...
    ssbg.errors.OutputError: cannot write ...: two outputs of the run are one file ...
    """
    seen: dict[str | tuple[int, int], Path] = {}
    read: dict[str | tuple[int, int], Path] = {}
    for given in inputs:
        if given is not None:
            real, inode = _identity(Path(given))
            read[real] = Path(given)
            if inode is not None:
                read[inode] = Path(given)
    for given in outputs:
        target = Path(given)
        try:
            mode: int | None = os.stat(target).st_mode
        except OSError:
            mode = None
        if mode is not None and stat.S_ISDIR(mode):
            raise OutputError(f"cannot write {target}: it is a folder", reason="is_a_directory", path=str(target),
                              detail="is a directory")
        if mode is not None and not stat.S_ISREG(mode):
            what = _kind(mode)
            raise OutputError(f"cannot write {target}: it is {what}, not a file ssbg may replace",
                              reason="not_a_regular_file", path=str(target), detail=what)
        real, inode = _identity(target)
        for key in (real, inode):
            if key is None:
                continue
            if key in read:
                raise OutputError(f"cannot write {target}: it is {read[key]}, which the run reads",
                                  reason="output_is_input", path=str(target), detail=str(read[key]))
            if key in seen:
                raise OutputError(f"cannot write {target}: two outputs of the run are one file ({seen[key]})",
                                  reason="outputs_collide", path=str(target), detail=str(seen[key]))
        seen[real] = target
        if inode is not None:
            seen[inode] = target


def atomic_write(target: str | Path, data: bytes | str) -> Path:
    """Write ``data`` (text as UTF-8) to a file beside ``target`` and rename it into place.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "x.txt"
    >>> atomic_write(p, "hello").read_text()
    'hello'
    """
    with OutputSet() as out:
        temp = out.temp(Path(target))
        try:
            temp.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        except OSError as exc:
            raise output_error(exc, str(target)) from None
        out.commit()
    return Path(target)


_HELD = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def _sigint_held() -> Iterator[None]:
    """SIGINT and SIGTERM are held off while the block runs and delivered after it (in the main thread, where
    Python runs signal handlers: each handler is swapped for one that only notes the signal, whichever thread
    the operating system gave it to; elsewhere the block runs as it is)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted: list[int] = []
    previous = {sig: signal.signal(sig, lambda signum, _frame: noted.append(signum)) for sig in _HELD}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for signum in dict.fromkeys(noted):
            signal.raise_signal(signum)  # as it would have been: KeyboardInterrupt, Terminated or the default


class Terminated(SystemExit):
    """SIGTERM arrived while an :class:`OutputSet` was open: its staged files were deleted, its targets left as
    they were (exit status 143, 128 + SIGTERM, as shells report a terminated process)."""

    def __init__(self) -> None:
        super().__init__(128 + signal.SIGTERM)


def _terminate(signum: int, frame: object) -> None:
    raise Terminated


class OutputSet:
    """Files staged beside their targets and swapped in together.

    :meth:`temp` gives the temporary path to write a target's content to (in
    the target's folder, so the rename is atomic); :meth:`remove` marks a
    target the new set no longer has; :meth:`commit` moves every existing
    target aside, renames each staged file into place, and only then deletes
    what was moved aside; a failure while it does so puts every old file back.
    Leaving the ``with`` block without a commit (an error, SIGINT) deletes the
    staged files: the targets are untouched.
    """

    def __init__(self) -> None:
        self._staged: dict[Path, Path] = {}
        self._removed: list[Path] = []
        self._done = False
        self._sigterm: object = None  # the SIGTERM handler this set replaced (None: it replaced none)

    def __enter__(self) -> OutputSet:
        # SIGTERM's default ends the process at once, and the staged files would outlive it: while the set is
        # open (main thread, default handler only) it raises Terminated instead, and __exit__ deletes them.
        if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) in (
            signal.SIG_DFL, None
        ):
            self._sigterm = signal.signal(signal.SIGTERM, _terminate)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        try:
            if not self._done:
                self.discard()
        finally:
            if self._sigterm is not None:
                signal.signal(signal.SIGTERM, self._sigterm)  # type: ignore[arg-type]
                self._sigterm = None

    def temp(self, target: Path) -> Path:
        """The staged path of ``target`` (its folder must exist: :func:`check_writable` makes it)."""
        target = Path(target)
        if target.is_dir():
            raise OutputError(f"cannot write {target}: it is a folder", reason="is_a_directory", path=str(target),
                              detail="is a directory")
        staged = self._staged.get(target)
        if staged is None:
            staged = self._staged[target] = _sibling(target, "ssbg-new")
        return staged

    def remove(self, target: Path) -> None:
        """Delete ``target`` at the commit, if it exists (a file of the old set the new one lacks)."""
        self._removed.append(Path(target))

    def discard(self) -> None:
        """Delete every staged file; the targets stay as they were."""
        for staged in self._staged.values():
            with contextlib.suppress(OSError):
                staged.unlink()
        self._staged.clear()
        self._done = True

    def commit(self) -> None:
        """Swap the staged files in (SIGINT held off meanwhile); :class:`~ssbg.errors.OutputError` when the
        file system refuses, with every old file back in place."""
        for target, staged in self._staged.items():
            if not staged.is_file():
                raise OutputError(f"nothing was written for {target}", reason="write_failed", path=str(target),
                                  detail="not staged")
        aside: list[tuple[Path, Path]] = []  # (target, where the old one went)
        placed: list[Path] = []
        with _sigint_held():
            try:
                for target in [*self._staged, *self._removed]:
                    if target.is_file() or target.is_symlink():
                        old = _sibling(target, "ssbg-old")
                        os.replace(target, old)
                        aside.append((target, old))
                for target, staged in self._staged.items():
                    os.replace(staged, target)
                    placed.append(target)
            except OSError as exc:
                failed = str(exc.filename) if exc.filename else "the output set"
                for target in placed:
                    with contextlib.suppress(OSError):
                        target.unlink()
                for target, old in aside:
                    with contextlib.suppress(OSError):
                        os.replace(old, target)
                self.discard()
                raise output_error(exc, failed, "replace") from None
            for _target, old in aside:
                with contextlib.suppress(OSError):
                    old.unlink()
        self._staged.clear()
        self._done = True
