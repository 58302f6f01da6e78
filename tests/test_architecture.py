"""The packages are the layers of the data flow: no module imports from a package to its right.

The order is the one a newcomer reads the code in (the documentation's architecture
section): the foundation, then range reduction as pure arithmetic, the generators, the streams that tests
read, exact algebra, empirical tests, draws (where a generator meets a reducer), seeds, shuffles, recovery,
and the pages, report, audit and command line on top. The command line's lazy stand-ins
(``lazy("module", "name")``, :func:`rnglab.cli.common.lazy`) count as imports.
"""

import ast
import functools
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


# -- names are resolved once, at the edge (issue #28) ----------------------------------------

#: The functions that turn a name into an object (their registries hold the entries).
RESOLVERS = {"as_reducer", "make_shuffle", "as_generator", "as_pipeline"}
#: The edges that call them: the command line, the loaders of TOML files (the catalog, the pipelines, the audit's
#: target), the report (it names its examples), and each resolver's own module (a default such as FISHER_YATES).
EDGES = ("rnglab.cli", "rnglab.report", "rnglab.audit.target", "rnglab.shuffles.pipelines", "rnglab.generators.catalog",
         "rnglab.reduction.reducers", "rnglab.shuffles.algorithms")
#: Modules another helper owned when the rule came in, resolved there still (to be moved to the edge).
NOT_YET = ("rnglab.shuffles.deal_probability",)


def _below_the_edge(module: str) -> bool:
    return not any(module == edge or module.startswith(edge + ".") for edge in EDGES + NOT_YET)


def _rnglab_classes() -> set[str]:
    return {node.name for _, tree in _package_modules() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}


def _union_names(annotation) -> set[str]:
    """The names joined by ``|`` in an annotation (a string annotation is parsed)."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return _union_names(ast.parse(annotation.value, mode="eval").body)
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        return _union_names(annotation.left) | _union_names(annotation.right)
    return {annotation.id} if isinstance(annotation, ast.Name) else set()


@functools.cache
def _package_modules() -> tuple:
    return tuple((module_name(path), ast.parse(path.read_text())) for path in PACKAGE.rglob("*.py"))


def _modules(paths=None):
    """``(module name, syntax tree)`` of the package's files, or of ``paths`` (``(module, path)`` pairs)."""
    if paths is None:
        return _package_modules()
    return [(module, ast.parse(Path(path).read_text())) for module, path in paths]


def name_or_object_parameters(paths=None) -> list[str]:
    """``module.function(parameter)`` for every parameter below the edge annotated ``str | X``, X an rnglab class."""
    classes, found = _rnglab_classes(), []
    for module, tree in _modules(paths):
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.name in RESOLVERS:
                continue
            arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
            found += [f"{module}.{node.name}({argument.arg})" for argument in arguments if argument.annotation
                      and "str" in _union_names(argument.annotation) and _union_names(argument.annotation) & classes
                      and _below_the_edge(module)]
    return sorted(found)


def resolver_calls_below_the_edge(paths=None) -> list[str]:
    """``module: resolver`` for every call of a resolver outside the edges."""
    return sorted(f"{module}: {node.func.id}" for module, tree in _modules(paths) for node in ast.walk(tree)
                  if isinstance(node, ast.Call) and getattr(node.func, "id", None) in RESOLVERS
                  and _below_the_edge(module))


def test_no_parameter_below_the_edge_takes_a_name_or_an_object():
    assert name_or_object_parameters() == []


def test_names_are_resolved_only_at_the_edge():
    assert resolver_calls_below_the_edge() == []


def test_the_name_rules_catch_a_name_below_the_edge(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("def draw(reducer: 'str | Reducer', deck: str | None):\n    return as_reducer(reducer)\n")
    below, edge = [("rnglab.draws.probe", probe)], [("rnglab.cli.probe", probe)]
    assert name_or_object_parameters(below) == ["rnglab.draws.probe.draw(reducer)"]
    assert resolver_calls_below_the_edge(below) == ["rnglab.draws.probe: as_reducer"]
    assert name_or_object_parameters(edge) == resolver_calls_below_the_edge(edge) == []


def bare_numba_kernels(paths=None) -> list[str]:
    """``module.function`` for every function compiled by ``numba.njit``/``numba.jit`` itself, not through
    :func:`rnglab.core.compiled.njit` (which imports numba on first use); the CUDA kernels are numba's own."""
    found = []
    for module, tree in _modules(paths):
        bare = {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                and node.module == "numba" for alias in node.names if alias.name in ("njit", "jit")}
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and module != "rnglab.core.compiled":
                for decorator in node.decorator_list:
                    target = decorator.func if isinstance(decorator, ast.Call) else decorator
                    if ast.unparse(target) in ("numba.njit", "numba.jit") or ast.unparse(target) in bare:
                        found.append(f"{module}.{node.name}")
    return sorted(found)


def test_every_kernel_compiles_through_the_lazy_njit():
    assert bare_numba_kernels() == []


def test_the_kernel_rule_catches_a_bare_njit(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import numba\nfrom numba import njit as jit\n\n@numba.njit(cache=True)\ndef a(x):\n    return x\n\n"
                     "@jit\ndef b(x):\n    return x\n")
    assert bare_numba_kernels([("rnglab.draws.probe", probe)]) == ["rnglab.draws.probe.a", "rnglab.draws.probe.b"]
