"""Fingerprint every output a refactoring must not move (``make fingerprint``).

Four digests:

- **corpora**: for every record of GSM8K train, SVAMP, MAWPS and CogComp (in
  ``../shared/corpora``), its id and either its import refusal (reason, detail) or
  its trace as canonical JSON plus the canonical string of its bound graph;
- **graphs**: the canonical string of every lane (``data/lanes``) and hand-written
  graph (``benchmarks/graphs.jsonl``) bound by ``bind_math_problem_graph``, and of
  chained traces (8 and 64 steps, admitted and refused at the root);
- **checks**: ``check_operation`` for every kind on every ordered pair of a list of
  unit texts (known, unknown, rates, pure numbers): the proof, or the refusal's
  reason, message, detail and offending unit;
- **report**: the bytes of every CSV table ``ssbg report data`` writes.

A change that claims "outputs byte-identical" shows the same digests before
and after.  Per-corpus digests say where a difference is.  The script runs against
another checkout's ssbg with ``PYTHONPATH=<that tree>`` (its own copy of the data).

Usage: ``python benchmarks/fingerprint.py [--corpora ../shared/corpora] [--pack NAME]``
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS_FILES = {
    "gsm8k": "gsm8k/train.jsonl",
    "svamp": "svamp/SVAMP.json",
    "mawps": "mawps/mwptoolkit/mawps_source.json",
    "cogcomp": "cogcomp_arithmetic/data/questions.json",
}


def _readers() -> dict[str, object]:
    """The reader table (format name -> reader)."""
    from ssbg.reading.readers import READERS

    return dict(READERS)


def corpus_digest(name: str, path: Path, pack: object) -> tuple[str, int]:
    """sha256 over every record of one corpus, in file order, and the record count."""
    from ssbg.reading.choosing import bind_choosing
    from ssbg.trace import Trace

    digest = hashlib.sha256()
    count = 0
    reader = _readers()[name]
    for record in reader(path):  # type: ignore[operator]
        count += 1
        digest.update(f"{record.problem_id}\n".encode())
        if record.refusal is not None:
            digest.update(f"refused {record.refusal.reason} {record.refusal.detail}\n".encode())
            continue
        payload = record.payload
        assert isinstance(payload, Trace)  # noqa: S101 - a fingerprint of corpus traces
        digest.update(payload.to_json().encode())
        digest.update(bind_choosing(payload, pack=pack).to_canonical_string().encode())
    return digest.hexdigest()[:16], count


CHECK_UNITS = (None, "dollars", "$", "cents", "hours", "minutes", "feet", "miles", "mph", "dollars_per_hour",
               "dollars per hour", "items", "boxes", "percent", "half", "apples", "square feet", "kg",
               "dollar_per_item", "widgets_per_hour")  # fmt: skip


def graphs_digest() -> str:
    """sha256 over the canonical strings of the lanes, the hand-written graphs and chained traces, bound."""
    import json

    from ssbg.adapter import bind_math_problem_graph
    from ssbg.problem import MathProblemGraph
    from ssbg.reading.choosing import bind_choosing

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from ab_worker import chained_trace

    digest = hashlib.sha256()
    for path in [*sorted((ROOT / "data" / "lanes").glob("*.jsonl")), ROOT / "benchmarks" / "graphs.jsonl"]:
        for line in path.read_text(encoding="utf-8").splitlines():
            data = json.loads(line)
            data.pop("expected", None)
            digest.update(bind_math_problem_graph(MathProblemGraph.from_dict(data)).to_canonical_string().encode())
    for steps in (8, 64):
        for refused in (False, True):
            digest.update(bind_choosing(chained_trace(steps, refused=refused)).to_canonical_string().encode())
    return digest.hexdigest()[:16]


def checks_digest() -> str:
    """sha256 over check_operation's answer for every kind on every ordered pair of :data:`CHECK_UNITS`."""
    from ssbg.admissibility import OPERATION_KINDS, check_operation
    from ssbg.errors import AdmissibilityError

    digest = hashlib.sha256()
    for kind in OPERATION_KINDS:
        for a in CHECK_UNITS:
            for b in CHECK_UNITS:
                for lhs in (None, "dollars"):
                    try:
                        answer = check_operation(kind, [a, b], lhs_unit=lhs).to_canonical_string()
                    except AdmissibilityError as exc:
                        answer = f"{exc.reason}|{exc}|{exc.detail}|{exc.offending_unit}"
                    digest.update(f"{kind} {a} {b} {lhs}: {answer}\n".encode())
    return digest.hexdigest()[:16]


def report_digest() -> str:
    """sha256 over the CSV tables of ``ssbg report data`` (file names and bytes, sorted)."""
    digest = hashlib.sha256()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        subprocess.run(
            [sys.executable, "-m", "ssbg.cli", "report", "data", "-o", str(out / "r.html"), "--csv-dir",
             str(out / "tables"), "--jobs", "1", "--no-progress"],
            cwd=ROOT, check=True, capture_output=True,
        )
        for csv in sorted((out / "tables").glob("*.csv")):
            digest.update(csv.name.encode() + b"\n" + csv.read_bytes())
    return digest.hexdigest()[:16]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    parser.add_argument("--pack", default=None, help="a pack name or folder (default: the core default)")
    args = parser.parse_args()
    from ssbg.units import default_pack, load_pack

    pack = load_pack(args.pack) if args.pack else default_pack()
    total = hashlib.sha256()
    for name, relative in CORPUS_FILES.items():
        path = args.corpora / relative
        if not path.exists():
            print(f"{name:8s} absent ({path})")
            continue
        digest, count = corpus_digest(name, path, pack)
        total.update(digest.encode())
        print(f"{name:8s} {count:6,d} records  {digest}")
    print(f"corpora  {total.hexdigest()[:16]}")
    print(f"graphs   {graphs_digest()}")
    print(f"checks   {checks_digest()}")
    print(f"report   {report_digest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
