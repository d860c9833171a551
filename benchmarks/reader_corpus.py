"""The learned reader over whole corpora, beside the rules alone (issue 24).

    python benchmarks/reader_corpus.py [--corpora ../shared/corpora] [--limit N]

For GSM8K train (composed pack ``en_units_v1+en_counts_v2+en_measures_v1``), only the problems the shipped model was
**not** trained on (its manifest knows its training questions by checksum): those are read out of fold.
For each, the same problems read with the learned reader and with the rules alone:

- root ``unit_mismatch`` among the steps whose operands all resolve in the pack
  (``ssbg.stats.gold.unit_mismatch_survey``), and
- the share of imported problems fully admitted (every equation admitted, the question's target bound).

For SVAMP, MAWPS and CogComp (no problem of which trained the model), the import share and the
fully admitted share, learned and rules.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ssbg.reading.learned.model import load_model, using
from ssbg.stats.batch import analyse_record, iter_records
from ssbg.stats.gold import unit_mismatch_survey
from ssbg.trace import Trace
from ssbg.units import load_pack

SPECS = {
    "gsm8k": "gsm8k=gsm8k/train.jsonl",
    "svamp": "svamp=svamp/SVAMP.json",
    "mawps": "mawps=mawps/mwptoolkit/mawps_source.json",
    "cogcomp": "cogcomp=cogcomp_arithmetic/data/questions.json",
}


def measure(corpora: Path, name: str, learned: bool, limit: int | None) -> dict[str, float]:
    pack = load_pack("en_units_v1+en_counts_v2+en_measures_v1")
    model = load_model()
    key, _, rel = SPECS[name].partition("=")
    rows = admitted = imported = skipped = 0
    traces: list[Trace] = []
    with using(model if learned else None):
        for record in iter_records([f"{key}={corpora / rel}"], limit=limit, pack=pack):
            if model is not None and record.text is not None and model.trained_on(record.text):  # GSM8K: the question
                skipped += 1
                continue
            rows += 1
            if record.payload is None:
                continue
            imported += 1
            analysis = analyse_record(record, pack=pack)
            admitted += analysis.problem[3] == "admitted"
            if isinstance(record.payload, Trace):
                traces.append(record.payload)
        survey = unit_mismatch_survey(traces, pack=pack)
    return {
        "problems": rows, "skipped (trained on)": skipped, "imported": imported / max(1, rows),
        "fully admitted (of imported)": admitted / max(1, imported), "steps resolved": survey.steps,
        "root unit_mismatch (of steps resolved)": survey.mismatch_share,
    }  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpora", default="../shared/corpora", type=Path)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--corpus", action="append", choices=sorted(SPECS))
    args = parser.parse_args()
    out = {}
    for name in args.corpus or list(SPECS):
        out[name] = {
            "learned": measure(args.corpora, name, True, args.limit),
            "rules": measure(args.corpora, name, False, args.limit),
        }
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
