"""The layering of mlax._src, checked from the source (no module is imported).

Every `import` / `from ... import` in every `_src` module, at module level or
inside a function or class, relative or absolute, is mapped to the `_src`
module it loads. The test fails on

* an import of a later layer than the importer's (the layers, lowest first,
  are `LAYERS` in mlax/_src/__init__.py),
* any cycle among `_src` modules (a function-level import closes a cycle just
  as well: it only hides it from the interpreter until the call),
* any import of the public `mlax` / `mlax.*` namespace from `_src`, and
* any `_src` module outside every layer.
"""
from __future__ import annotations

import ast
import pathlib

import pytest

SRC = pathlib.Path(__file__).resolve().parents[2] / "python" / "mlax" / "_src"
PREFIX = "mlax._src"


def _layers():
    tree = ast.parse((SRC / "__init__.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "LAYERS" for t in node.targets):
            return ast.literal_eval(node.value)
    return ()


def _modules():
    """{dotted name: path} of every module of mlax._src."""
    mods = {}
    for path in sorted(SRC.rglob("*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join((PREFIX,) + parts)] = path
    return mods


def _imports(name, path, mods):
    """(line, target) for every import in the module: a target is the dotted
    name of the module loaded (a `_src` module when it is one)."""
    is_pkg = path.name == "__init__.py"
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_pkg else name.split(".")[:-1]
                base = base[:len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                yield node.lineno, sub if sub in mods else module


def _graph():
    mods = _modules()
    edges = {}
    for name, path in mods.items():
        edges[name] = [(line, target) for line, target in _imports(name, path, mods)
                       if target == "mlax" or target.startswith("mlax.")]
    return mods, edges


def _layer_of(module, layers):
    parts = module.split(".")
    if len(parts) < 3:
        return None  # mlax._src itself
    for i, packages in enumerate(layers):
        if parts[2] in packages:
            return i
    return -1


def _where(mods, name, line):
    return f"{mods[name].relative_to(SRC.parent.parent)}:{line}"


def test_layers_are_declared():
    assert _layers(), "mlax/_src/__init__.py must define LAYERS"


def test_every_module_is_in_a_layer():
    layers = _layers()
    outside = [name for name in _modules() if _layer_of(name, layers) == -1]
    assert not outside, f"_src modules outside every layer of LAYERS: {outside}"


def test_no_import_of_the_public_namespace():
    mods, edges = _graph()
    bad = [f"{_where(mods, name, line)} imports {target}"
           for name, targets in edges.items() for line, target in targets
           if not (target == PREFIX or target.startswith(PREFIX + "."))]
    assert not bad, "_src must not import the public mlax namespace:\n" + "\n".join(bad)


def test_no_upward_import():
    layers = _layers()
    mods, edges = _graph()
    bad = []
    for name, targets in edges.items():
        mine = _layer_of(name, layers)
        for line, target in targets:
            if not target.startswith(PREFIX + "."):
                continue
            theirs = _layer_of(target, layers)
            if mine is not None and theirs is not None and (mine == -1 or theirs > mine):
                bad.append(f"{_where(mods, name, line)} ({name}) imports {target}")
    assert not bad, "imports from a higher layer:\n" + "\n".join(bad)


def _cycles(nodes, succ):
    """The strongly connected components of more than one node, or of one
    node importing itself (Tarjan, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(succ.get(root, ())))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(succ.get(nxt, ()))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    comp.append(top)
                    if top == node:
                        break
                if len(comp) > 1 or node in succ.get(node, ()):
                    found.append(sorted(comp))
    return found


def test_no_import_cycle():
    mods, edges = _graph()
    succ = {name: sorted({t for _, t in targets if t in mods and t != PREFIX})
            for name, targets in edges.items()}
    cycles = _cycles(sorted(mods), succ)
    assert not cycles, "import cycles among _src modules:\n" + "\n".join(
        " <-> ".join(c) for c in cycles)


@pytest.mark.parametrize("forbidden", ["_more", "_extra", "_impl", "_composite"])
def test_no_file_named_for_when_it_was_written(forbidden):
    bad = [str(p.relative_to(SRC)) for p in SRC.rglob("*.py") if p.stem.endswith(forbidden)]
    assert not bad, f"name files for what they hold: {bad}"


def test_one_module_owns_jaxlib_internals():
    """Only base/jaxlib_internals.py touches jaxlib's and JAX's private
    modules (it checks the jaxlib version they hold together at)."""
    mods = _modules()
    owner = f"{PREFIX}.base.jaxlib_internals"
    bad = []
    for name, path in mods.items():
        if name == owner:
            continue
        for line, target in _imports(name, path, mods):
            if target.startswith(("jaxlib._jax", "jax._src")) or target == "jaxlib._jax":
                bad.append(f"{_where(mods, name, line)} imports {target}")
            elif target == "jaxlib" and "_jax" in path.read_text().splitlines()[line - 1]:
                bad.append(f"{_where(mods, name, line)} imports jaxlib._jax")
    assert not bad, f"private jaxlib/JAX access outside {owner}:\n" + "\n".join(bad)
