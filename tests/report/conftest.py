"""Shared by the tests of the report's sections: a quick report's context, made once per test module.

A section computes for seconds (exact laws, searches, lattice reductions), so a test module builds each section
once, in a module-scoped fixture of its own, on a context from :func:`quick_context`.
"""

import pytest

from rnglab.report import ReportContext


@pytest.fixture(scope="module")
def quick_context(tmp_path_factory):
    """``quick_context(seed=...)``: a quick report's context writing its figures to a folder of its own."""

    def make(seed: int = 20261122) -> ReportContext:
        return ReportContext(tmp_path_factory.mktemp("report"), seed=seed, quick=True)

    return make



@pytest.fixture(scope="module")
def quick_section(quick_context):
    """``quick_section(build, seed=...)``: ``(context, build(context))`` for a section that draws figures."""

    def make(build, seed: int = 20261122):
        context = quick_context(seed)
        return context, build(context)

    return make
