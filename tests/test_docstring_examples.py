"""Every ``>>>`` example in rnglab's docstrings runs and prints what the docstring shows.

pytest collects doctests only with ``--doctest-modules``, which the suite does not pass (it would also import
the reference programs under tests/data as modules), so this test runs them: one case per module that has
examples, with :mod:`doctest`'s default comparison (pytest's too).
"""

import doctest
import importlib
import pkgutil

import pytest

import rnglab


def modules_with_examples() -> list[str]:
    """The names of rnglab's modules whose docstrings hold at least one example (``__main__`` runs the CLI)."""
    finder = doctest.DocTestFinder()
    names = []
    for info in pkgutil.walk_packages(rnglab.__path__, "rnglab."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        if any(test.examples for test in finder.find(module)):
            names.append(info.name)
    return names


@pytest.mark.parametrize("name", modules_with_examples())
def test_docstring_examples_print_what_they_show(name):
    result = doctest.testmod(importlib.import_module(name))  # a failure's expected and got are printed
    assert result.attempted and not result.failed


def test_a_wrong_example_is_caught():
    def shown():
        """>>> 1 + 1
        3
        """

    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner()
    runner.run(parser.get_doctest(shown.__doc__, {}, "shown", None, 0), out=lambda text: None)
    assert runner.failures == 1
