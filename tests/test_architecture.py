"""The packages are the layers of the data flow: no module imports from a package to its right.

The order is the one a newcomer reads the code in (the README's and the documentation's architecture
section): the foundation, then range reduction as pure arithmetic, the generators, the streams that tests
read, exact algebra, empirical tests, draws (where a generator meets a reducer), seeds, shuffles, recovery,
and the pages, report, audit and command line on top. The command line's lazy stand-ins
(``lazy("module", "name")``, :func:`rnglab.cli.common.lazy`) count as imports.
"""

import ast
from pathlib import Path

import rnglab

#: Packages (and the entry-point modules) from the bottom layer to the top one.
LAYERS = [
    "rnglab.core", "rnglab.data", "rnglab.parallel", "rnglab.reduction", "rnglab.generators", "rnglab.streams",
    "rnglab.algebra", "rnglab.empirical", "rnglab.draws", "rnglab.seeds", "rnglab.shuffles", "rnglab.recovery",
    "rnglab.plot", "rnglab.pages", "rnglab.report", "rnglab.audit", "rnglab.cli", "rnglab.console",
    "rnglab.__main__", "rnglab",
]
PACKAGE = Path(rnglab.__file__).parent


def layer(module: str) -> int:
    """The position in :data:`LAYERS` of the package (or entry module) that holds ``module``."""
    for rank, prefix in enumerate(LAYERS):
        if module == prefix or (prefix != "rnglab" and module.startswith(prefix + ".")):
            return rank
    raise LookupError(f"{module} is in no layer")


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")


def imported_modules(path: Path):
    """Every rnglab module ``path`` imports, including the CLI's lazy stand-ins."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rnglab"):
            yield node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name.startswith("rnglab"))
        elif (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "lazy" and node.args
              and isinstance(node.args[0], ast.Constant)):
            yield f"rnglab.{node.args[0].value}"


def test_no_module_imports_from_a_package_to_its_right():
    upward = [(module_name(path), target) for path in PACKAGE.rglob("*.py")
              for target in imported_modules(path) if layer(target) > layer(module_name(path))]
    assert upward == []


def test_imports_are_absolute():
    relative = [module_name(path) for path in PACKAGE.rglob("*.py")
                if any(isinstance(node, ast.ImportFrom) and node.level for node in ast.walk(ast.parse(path.read_text())))]
    assert relative == []


def test_every_module_has_a_layer_and_the_lazy_imports_exist():
    for path in PACKAGE.rglob("*.py"):
        layer(module_name(path))
        for target in imported_modules(path):
            assert (PACKAGE.parent / (target.replace(".", "/") + ".py")).exists() or \
                (PACKAGE.parent / target.replace(".", "/") / "__init__.py").exists() or \
                (PACKAGE.parent / (target.rsplit(".", 1)[0].replace(".", "/") + ".py")).exists() or \
                (PACKAGE.parent / target.rsplit(".", 1)[0].replace(".", "/") / "__init__.py").exists(), (path, target)


def test_the_layers_catch_an_upward_import():
    assert layer("rnglab.reduction.maps") < layer("rnglab.generators.spec") < layer("rnglab.draws.bounded")
    assert layer("rnglab.seeds.space") < layer("rnglab.shuffles.reach") < layer("rnglab.recovery.crack")
