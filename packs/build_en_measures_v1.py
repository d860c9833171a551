"""Write packs/en_measures_v1/{lexicon.jsonl,manifest.json}: measures en_units_v1 lacks (ADR 0026).

``en_units_v1`` stays closed and unchanged (ADR 0017); this small pack composes with it and the count
nouns into the corpus pack.  Its rows, the table below, in en_units_v1's coherent base units (foot,
minute) and over ADR-0134's six base dimensions, which stay as they are:

- the cubic measures (volume, ``length**3``): ``cubic feet`` and cubic inch, yard, centimetre and metre;
- ``night`` (time): a night of a stay is one of the days it lasts (``$80 per night for 3 nights``), a
  day's 1,440 minutes like en_units_v1's ``day``;
- ``angle_degree`` (dimensionless, ratio 1: an angle in degrees is a number of degrees, as a percent is a
  number of hundredths): ``degrees`` is en_units_v1's temperature and keeps that meaning; the angle is
  read where the text writes it (``a 90 degree angle``, ``degree turn``) or where the mention reader's
  angle cue says the sentence is about angles (``turned 90 degrees``, a triangle's angles), which writes
  the unit ``angle degrees``.

Run ``python packs/build_en_measures_v1.py`` after editing; the test suite checks that the committed files
equal its output.
"""

from __future__ import annotations

import hashlib
import json
import sys
from fractions import Fraction as F
from pathlib import Path

NAME = "en_measures_v1"
VERSION = "1.0.0"

FOOT = F(1)
INCH = F(1, 12)
YARD = F(3)
METER = F(1250, 381)  # 1 m = 1/0.3048 ft exactly (en_units_v1's)
CM = METER / 100
DAY = F(1440)  # minutes

VOL = {"length": 3}
TIME = {"time": 1}
NONE: dict[str, int] = {}

# lemma, plural, surfaces, domain, dimension, ratio (in the base units), canonical
ROWS: tuple[tuple[str, str, list[str], str, dict[str, int], F, bool], ...] = (
    ("cubic_foot", "cubic feet", ["cu ft", "ft³", "cubic ft"], "volume", VOL, FOOT**3, False),
    ("cubic_inch", "cubic inches", ["cu in", "in³"], "volume", VOL, INCH**3, False),
    ("cubic_yard", "cubic yards", ["cu yd", "yd³"], "volume", VOL, YARD**3, False),
    ("cubic_centimeter", "cubic centimeters", ["cubic centimetre", "cubic centimetres", "cm³"], "volume", VOL,
     CM**3, False),
    ("cubic_meter", "cubic meters", ["cubic metre", "cubic metres", "m³"], "volume", VOL, METER**3, False),
    ("night", "nights", [], "time", TIME, DAY, False),
    ("angle_degree", "angle degrees",
     ["degree angle", "degree angles", "degree turn", "degree turns", "degrees of arc", "degree of arc"],
     "dimensionless", NONE, F(1), False),
)


def render() -> tuple[bytes, bytes]:
    lines = []
    for lemma, plural, surfaces, domain, dim, ratio, canonical in ROWS:
        row = {"lemma": lemma, "plural": plural, "surfaces": surfaces, "domain": domain, "dimension": dim,
               "ratio": str(ratio), "canonical": canonical, "container_size": None}
        lines.append(json.dumps(row, ensure_ascii=False, sort_keys=True))
    lexicon = ("\n".join(lines) + "\n").encode("utf-8")
    manifest = {
        "name": NAME,
        "version": VERSION,
        "description": "Measures en_units_v1 does not list: cubic volumes, a night as a time, an angle's degree "
        "(ADR 0026).",
        "rows": len(ROWS),
        "sha256": hashlib.sha256(lexicon).hexdigest(),
        "ratio_base": "foot, minute (en_units_v1's); an angle degree is dimensionless with ratio 1",
    }
    return lexicon, (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode("utf-8")


def main() -> int:
    out = Path(__file__).resolve().parent / NAME
    out.mkdir(exist_ok=True)
    lexicon, manifest = render()
    for name, data in (("lexicon.jsonl", lexicon), ("manifest.json", manifest)):
        tmp = out / f".{name}.tmp"
        tmp.write_bytes(data)
        tmp.replace(out / name)
    print(f"wrote {len(ROWS)} rows to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
