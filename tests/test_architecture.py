"""The package layout is the data flow: no module imports from a layer to its right (README, "Architecture")."""

import ast
from pathlib import Path

import rnglab

#: Layers left to right; a module belongs to its longest matching prefix.
LAYERS = [
    ("rnglab.params", 0), ("rnglab.compiled", 0), ("rnglab.results", 0), ("rnglab.fileio", 0), ("rnglab.data", 0), ("rnglab.parallel", 0),
    ("rnglab.reduction", 1), ("rnglab.reduction.maps", 1), ("rnglab.reduction.counts", 1),
    ("rnglab.reduction.reducers", 1),
    ("rnglab.generators", 2), ("rnglab.stream", 3), ("rnglab.algebra", 4), ("rnglab.empirical", 4),
    ("rnglab.reduction.draw", 5), ("rnglab.reduction.words", 5), ("rnglab.reduction.bias", 5),
    ("rnglab.seeds", 6), ("rnglab.seeds.policies", 6), ("rnglab.seeds.space", 6), ("rnglab.shuffles", 7),
    ("rnglab.seeds.crack", 8), ("rnglab.seeds.recover", 8), ("rnglab.seeds.distributed", 8), ("rnglab.seeds.dealt", 8),
    ("rnglab.plot", 9), ("rnglab.pages", 10), ("rnglab.report", 10), ("rnglab.audit", 10),
    ("rnglab.cli", 11), ("rnglab.console", 12), ("rnglab.__main__", 12), ("rnglab", 13),
]
PACKAGE = Path(rnglab.__file__).parent


def layer(module: str) -> int | None:
    """The layer of a module: its longest matching prefix (the package itself, ``rnglab``, matches only itself)."""
    return max(((len(prefix), rank) for prefix, rank in LAYERS
                if module == prefix or (prefix != "rnglab" and module.startswith(prefix + "."))),
               default=(0, None))[1]


def imported_modules(path: Path, module: str):
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            parts = package.split(".")
            base = parts[:len(parts) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else [])) if node.level else node.module
            if target and target.startswith("rnglab"):
                yield from ([f"{target}.{a.name}" for a in node.names] if node.module is None else [target])


def test_no_module_imports_from_a_layer_to_its_right():
    upward = []
    for path in PACKAGE.rglob("*.py"):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
        upward += [(module, target) for target in imported_modules(path, module) if layer(target) > layer(module)]
    assert upward == []


def test_every_module_has_a_layer():
    modules = [".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
               for p in PACKAGE.rglob("*.py")]
    assert [m for m in modules if layer(m) is None] == []
    assert layer("rnglab.shuffles.reach") < layer("rnglab.seeds.crack") and layer("rnglab.seeds.space") < 7
