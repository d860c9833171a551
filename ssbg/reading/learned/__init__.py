"""The learned part of reading (edge): rules propose readings, a small trained model chooses (ADR 0021).

Three rooms, one per part of the reader:

- :mod:`~ssbg.reading.learned.proposals` — the **candidate readings** of a question's mention
  (its counted or measured thing, and per what), generous by design: the rules' reading and
  their second reading, every noun near the number, the things the other mentions count,
  every noun of the text a rate could be per, and no unit at all;
- :mod:`~ssbg.reading.learned.features` — what is known of each candidate (the words around
  it, ``per``/``each``/``a``, where it stands, what kind of unit it names, whether the rules
  chose it): sparse named features;
- :mod:`~ssbg.reading.learned.model` — the **scorer**: a conditional-logit model whose weights
  ship in the wheel (``reader.json``), scored in plain Python (no training library is
  imported to read), and the **decision** that gives each mention its most probable reading
  and keeps the n-best with their probabilities.

Training (:mod:`ssbg.stats.train_reader`, ``make train``) reads only development data: the
hand-written gold alignments' training files and the gold set's dev half; it never reads the
gold set's held-out half or any GSM8K test question.
"""

from __future__ import annotations

__all__: list[str] = []
