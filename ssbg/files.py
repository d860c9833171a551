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
import json
import os
import secrets
import signal
import stat
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any, BinaryIO

from ssbg.errors import OutputError, output_error

__all__ = [
    "OutputLock",
    "OutputSet",
    "Terminated",
    "atomic_write",
    "check_outputs",
    "check_writable",
    "commits",
    "in_commit",
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
    (``EFBIG``) for a larger one, found after reading ``limit + 1`` bytes, never the whole file.

    The first read asks for the size the file says it has (a buffer of ``limit`` bytes for a small file
    would reserve the whole cap); a file that grows meanwhile is read on up to the cap.
    """
    with open_regular(path) as handle:
        size = os.fstat(handle.fileno()).st_size
        data = handle.read(min(size, limit) + 1)
        if size < len(data) <= limit:
            data += handle.read(limit + 1 - len(data))
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
    try:
        _probe(path)
    except OSError as exc:
        raise output_error(exc, str(path), "write into") from None
    return path


def _probe(folder: Path) -> None:
    """Write one byte into ``folder`` and leave nothing behind, even when interrupted (Ctrl-C): an
    anonymous file (``O_TMPFILE``) where the system has one, else a named one removed in ``finally``."""
    if hasattr(os, "O_TMPFILE"):
        try:
            fd = os.open(folder, os.O_TMPFILE | os.O_WRONLY, 0o600)
        except OSError as exc:
            if exc.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):
                raise
        else:
            try:
                os.write(fd, b"\0")
            finally:
                os.close(fd)
            return
    probe = _sibling(folder / "probe", "ssbg-probe")
    try:
        probe.write_bytes(b"\0")
    finally:
        with contextlib.suppress(OSError):
            probe.unlink()


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

    def __init__(self, lock: OutputLock | None = None) -> None:
        self._lock = lock  # with a lock, a commit is journaled beside it
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
        """Swap the staged files in (SIGINT and SIGTERM held off meanwhile); :class:`~ssbg.errors.OutputError` when
        the file system refuses, with every old file back in place.  With a lock (:class:`OutputLock`) the swap is
        written to its journal first, so that a run killed in the middle of it (SIGKILL, a power cut) is rolled
        forward or back by the next run on the set."""
        for target, staged in self._staged.items():
            if not staged.is_file():
                raise OutputError(f"nothing was written for {target}", reason="write_failed", path=str(target),
                                  detail="not staged")
        aside = [(target, _sibling(target, "ssbg-old")) for target in dict.fromkeys([*self._staged, *self._removed])
                 if target.is_file() or target.is_symlink()]
        olds = dict(aside)
        placed: list[Path] = []
        moved: list[tuple[Path, Path]] = []
        with _sigint_held():
            _STATE.in_commit = True
            try:
                if self._lock is not None:
                    self._lock.write_journal(
                        [(t, s, olds.get(t)) for t, s in self._staged.items()],
                        [(t, olds[t]) for t in self._removed if t in olds and t not in self._staged],
                    )
                for target, old in aside:
                    os.replace(target, old)
                    moved.append((target, old))
                for target, staged in self._staged.items():
                    os.replace(staged, target)
                    placed.append(target)
            except OSError as exc:
                failed = str(exc.filename) if exc.filename else "the output set"
                for target in placed:
                    with contextlib.suppress(OSError):
                        target.unlink()
                for target, old in moved:
                    with contextlib.suppress(OSError):
                        os.replace(old, target)
                self.discard()
                if self._lock is not None:
                    self._lock.end_journal()
                _STATE.in_commit = False
                raise output_error(exc, failed, "replace") from None
            _STATE.commits += 1  # the new set is in place: what an interruption from here on must say
            for _target, old in aside:
                with contextlib.suppress(OSError):
                    old.unlink()
            if self._lock is not None:
                self._lock.end_journal()
            _STATE.in_commit = False
        self._staged.clear()
        self._done = True


class _CommitState:
    """What this process's commits are doing (read by :func:`in_commit` and :func:`commits`)."""

    in_commit = False
    commits = 0


_STATE = _CommitState()


def in_commit() -> bool:
    """Whether an :meth:`OutputSet.commit` is renaming files now (what a test kills a run inside)."""
    return _STATE.in_commit


def commits() -> int:
    """How many output sets this process has swapped into place: a command compares it before and after, to say
    on an interruption whether its outputs were replaced."""
    return _STATE.commits


_fcntl: Any
try:
    import fcntl as _fcntl
except ImportError:  # pragma: no cover - not POSIX: no lock, the journal alone
    _fcntl = None


class OutputLock:
    """The lock of an output set, held by one run from before its first record is read to after its commit.

    The set is named by its first file (``primary``, the verdicts CSV or the report page); beside it are
    ``.NAME.ssbg.lock`` (a ``flock``, released by the kernel when the process ends however it ends, and
    deleted by its holder) and, during a commit, ``.NAME.ssbg.journal`` (the renames the commit makes).
    Taking the lock (``with OutputLock(...)``) refuses a set another run holds (:class:`~ssbg.errors.OutputError`
    ``output_locked``: the second run stops, exit 2, rather than wait), then finishes what a killed run left:
    a journal is rolled forward when every new file of it was in place, else back to the old set; then the
    staged files of a killed run (``.NAME.ssbg-new-*``, ``.NAME.ssbg-old-*``) of each of ``files`` and of
    every file of ``folders`` are deleted.  :attr:`note` says what was done, or None (ADR 0033).

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> with OutputLock(d / "v.csv") as lock, OutputSet(lock) as out:
    ...     _ = out.temp(d / "v.csv").write_text("new")
    ...     out.commit()
    >>> sorted(p.name for p in d.iterdir()), lock.note
    (['v.csv'], None)
    """

    def __init__(self, primary: str | Path, files: Iterable[str | Path] = (),
                 folders: Iterable[str | Path] = ()) -> None:
        self.primary = Path(primary)
        self.path = self.primary.with_name(f".{self.primary.name}.ssbg.lock")
        self.journal = self.primary.with_name(f".{self.primary.name}.ssbg.journal")
        self._files = [self.primary, *(Path(f) for f in files)]
        self._folders = [Path(f) for f in folders]
        self._fd: int | None = None
        self.note: str | None = None

    def __enter__(self) -> OutputLock:
        try:
            self._acquire()
            self.note = self._recover()
            self._clean()
        except OutputError:
            self._release()
            raise
        except OSError as exc:
            self._release()
            raise output_error(exc, str(self.path), "lock") from None
        except BaseException:
            self._release()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self._release()

    def _acquire(self) -> None:
        while _fcntl is not None:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
            try:
                _fcntl.flock(fd, _fcntl.LOCK_EX | _fcntl.LOCK_NB)
            except OSError as exc:
                os.close(fd)
                if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    raise
                raise OutputError(f"another ssbg run is writing the outputs of {self.primary}; run again when it "
                                  "has ended (nothing was read or written)", reason="output_locked",
                                  path=str(self.primary), detail=str(self.path)) from None
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(self.path))
            except FileNotFoundError:
                same = False
            if same:  # the lock file still is the one locked (its last holder may have deleted it meanwhile)
                self._fd = fd
                return
            os.close(fd)

    def _release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                self.path.unlink()  # while held: a run waiting on the old file finds it gone and takes a new one
            os.close(self._fd)
            self._fd = None

    def write_journal(self, staged: list[tuple[Path, Path, Path | None]], removed: list[tuple[Path, Path]]) -> None:
        """Write the renames a commit is about to make (``(target, staged, old)``; ``(target, old)`` of a file the
        new set removes), whole or not at all, before the first of them."""
        def at(path: Path) -> str:  # absolute: the next run may start in another folder
            return os.path.abspath(path)

        text = json.dumps({"staged": [[at(t), at(s), None if o is None else at(o)] for t, s, o in staged],
                           "removed": [[at(t), at(o)] for t, o in removed]})
        temp = self.journal.with_name(self.journal.name + "-new")
        with open(temp, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, self.journal)

    def end_journal(self) -> None:
        """The commit is done (or undone): its journal goes."""
        with contextlib.suppress(OSError):
            self.journal.unlink()

    def _recover(self) -> str | None:
        with contextlib.suppress(OSError):
            self.journal.with_name(self.journal.name + "-new").unlink()
        try:
            plan = json.loads(self.journal.read_text(encoding="utf-8"))
            staged = [(Path(t), Path(s), None if o is None else Path(o)) for t, s, o in plan["staged"]]
            removed = [(Path(t), Path(o)) for t, o in plan["removed"]]
        except FileNotFoundError:
            return None
        except (ValueError, KeyError, TypeError) as exc:
            raise OutputError(f"the journal of an interrupted commit, {self.journal}, cannot be read ({exc}); "
                              "look at the files beside it and delete it", reason="write_failed",
                              path=str(self.journal), detail="journal") from None
        if not any(s.exists() for _, s, _ in staged):  # every new file is in place: finish the commit
            for gone in [o for _, _, o in staged if o is not None] + [o for _, o in removed]:
                with contextlib.suppress(FileNotFoundError):
                    gone.unlink()
            note = "the new outputs of an interrupted run were in place: its commit was finished"
        else:  # back to the old set
            for target, new, old in staged:
                if old is not None and old.exists():
                    os.replace(old, target)
                elif old is None and not new.exists():
                    with contextlib.suppress(FileNotFoundError):
                        target.unlink()
                with contextlib.suppress(FileNotFoundError):
                    new.unlink()
            for target, aside in removed:
                if aside.exists():
                    os.replace(aside, target)
            note = "an interrupted run had begun to replace these outputs: the previous ones were put back"
        self.journal.unlink()
        return f"ssbg: {note} ({self.primary})"

    def _clean(self) -> None:
        for target in self._files:
            for tag in ("ssbg-new", "ssbg-old"):
                for left in target.parent.glob(f".{_glob_escape(target.name)}.{tag}-*"):
                    with contextlib.suppress(OSError):
                        left.unlink()
        for folder in self._folders:
            for tag in ("ssbg-new", "ssbg-old"):
                for left in folder.glob(f".*.{tag}-*"):
                    with contextlib.suppress(OSError):
                        left.unlink()


def _glob_escape(name: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in name)
