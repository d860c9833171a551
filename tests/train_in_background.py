"""``make train``'s model built in a process of its own, beside the rest of the test suite (tests/conftest.py).

    python tests/train_in_background.py CORPORA OUT_DIR

writes ``OUT_DIR/model.bin`` (the bytes ``make train`` would ship) and ``OUT_DIR/facts.json`` (the manifest's data
files and the candidates' recall counts) for
``test_learned_reader.test_make_train_rebuilds_the_shipped_model_byte_identically`` to check.  Building the
model is the suite's longest test (about three minutes on one core); in its own process it runs on the second.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ssbg.stats.train_reader import build_model, model_bytes


def main(corpora: Path, out: Path) -> None:
    model, recall = build_model(corpora)
    (out / "model.bin").write_bytes(model_bytes(model))
    facts = {"data": model.manifest["data"], "recall": dict(recall)}
    (out / "facts.json").write_text(json.dumps(facts, sort_keys=True), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
