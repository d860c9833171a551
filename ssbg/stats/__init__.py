"""Statistics edge: what a corpus run produced, counted.

Batch binding of corpora (:mod:`ssbg.stats.batch`), the tidy tables and their
summaries (:mod:`~ssbg.stats.tables`), plots (:mod:`~ssbg.stats.plots`), the
HTML report (:mod:`~ssbg.stats.report`), agreement with gold annotations
(:mod:`~ssbg.stats.gold`) and the ``ssbg report`` command
(:mod:`~ssbg.stats.cli`).

It imports the core, :mod:`ssbg.reading` and :mod:`ssbg.views`; neither of
those imports it (a test checks it).  pandas, tqdm, matplotlib and dask are
imported inside the functions that need them, so importing the package stays
cheap.
"""
