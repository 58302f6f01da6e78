"""Embarrassingly parallel work cut into chunks: run on a dask cluster or here, journaled, resumable.

The work is a set of half-open integer ranges (seeds, candidates, replications);
a task maps one chunk ``[first, stop)`` to a JSON-ready result. The modules know
nothing of what a task computes: the commands hand them a task built in their
own layer (a seed search, a battery over seeds, a multiplier search, a count of
deals).

==============================  ======================================================
:mod:`rnglab.parallel.chunks`    cutting, running and gathering chunks; failures; coverage
:mod:`rnglab.parallel.cluster`   a dask client: an existing scheduler or local processes
:mod:`rnglab.parallel.journal`   the append-only record of finished chunks, to resume
:mod:`rnglab.parallel.cpus`      a run's threads kept on one CPU
==============================  ======================================================
"""
