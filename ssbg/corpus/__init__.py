"""Corpus edge: readers of corpus formats, mention extraction, batch binding, statistics, reports.

An edge module: it may import pandas, tqdm, matplotlib and dask, each inside the
function that needs it, so that importing the package stays cheap.
"""
