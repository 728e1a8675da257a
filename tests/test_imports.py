"""The package's import graph: one direction of flow, no cycle, no import hidden in a function.

Module-level imports of every ``blockclf`` module are read with `ast` (imports under
``if TYPE_CHECKING:`` are for type checkers only and do not run); a cycle among them fails
the test with its path. Imports inside functions are allowed only for the names below:
optional extras, and heavy libraries kept off the start-up path on purpose. The command
line's modules (``blockclf.cli.*``) are that path: every command builds every subcommand's
parser, so a subcommand imports the library it runs on when it runs.
"""

from __future__ import annotations

import ast
from pathlib import Path

import blockclf

PACKAGE = Path(blockclf.__file__).parent

#: modules a function may import: optional extras, and libraries kept off the start-up path
LAZY_ALLOWED = {
    "charset_normalizer", "cloudpickle", "concurrent.futures", "concurrent.futures.process", "dask", "dask.bag",
    "dask.distributed", "importlib.metadata", "lightgbm", "matplotlib", "matplotlib.pyplot", "multiprocessing", "pandas",
    "scipy.stats", "tqdm", "warcio.archiveiterator",
    "warcio.statusandheaders", "warcio.bufferedreaders",  # WARC input's optional extra, like its iterator
    "py3langid.langid",  # the language identifier only where pycld2 is not installed
    "ftfy",  # the mojibake repair, only for a page that shows its marks (80 ms to import)
    "email.parser", "email.policy",  # the MHTML reader, only for a browser's single-file save (17 ms)
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(module: str, node: ast.ImportFrom, is_package: bool) -> list[str]:
    if node.level == 0:
        base = node.module or ""
    else:
        parts = module.split(".")
        keep = len(parts) - node.level + (1 if is_package else 0)
        base = ".".join(parts[:keep] + ([node.module] if node.module else []))
    names = [base]
    names += [f"{base}.{a.name}" for a in node.names]  # ``from . import x`` imports the module x
    return names


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.Module, module: str, is_package: bool, known: set[str]) -> set[str]:
    found: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.If) and _type_checking(node):
                visit(node.orelse)
                continue
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                found.update(_resolve(module, node, is_package))
            elif isinstance(node, (ast.If, ast.Try, ast.With)):
                for field in ("body", "orelse", "finalbody"):
                    visit(getattr(node, field, []))
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)

    visit(tree.body)
    # a module's parent packages are imported before it, whatever it imports: not an edge
    parents = {".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 1)}
    return {name for name in found if name in known and name != module and name not in parents}


def _graph() -> dict[str, set[str]]:
    files = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    known = set(files)
    return {m: _imports(ast.parse(p.read_text(encoding="utf-8")), m, p.name == "__init__.py", known)
            for m, p in files.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    stack: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := walk(nxt)) is not None:
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := walk(node)) is not None:
            return found
    return None


def test_the_import_graph_has_no_cycle():
    graph = _graph()
    assert len(graph) > 30 and "blockclf.cli.extract" in graph
    cycle = _cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_one():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_hides_in_a_function():
    hidden = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom):
                    names = [_resolve(_module_name(path), node, path.name == "__init__.py")[0]]
                else:
                    continue
                if _module_name(path).startswith("blockclf.cli"):
                    names = [n for n in names if not n.startswith("blockclf.")]
                if _module_name(path) == "blockclf.result":  # renderers on first use (its docstring says why)
                    names = [n for n in names if n != "blockclf.render"]
                hidden += [f"{path.name}:{node.lineno} {fn.name}: {n}" for n in names if n not in LAZY_ALLOWED]
    assert not hidden, "imports inside functions: " + "; ".join(hidden)


def test_no_private_name_crosses_modules():
    crossing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("blockclf")):
                crossing += [f"{path.name}: {node.module}.{a.name}" for a in node.names
                             if a.name.startswith("_") and not a.name.startswith("__")]
    assert not crossing, "private names imported from other modules: " + "; ".join(crossing)
