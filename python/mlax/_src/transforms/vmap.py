"""vmap: traces the per-example function and emits one `mlax.vmap` op naming
it; the `mlax-vectorize` pass generates the batched function from each op's
batching rule."""
from __future__ import annotations

import functools

import numpy as np
from mlir import ir

from mlax._src.backend import sharding as sharding_lib
from mlax._src.core import tracer as core
from mlax._src.backend import native
from mlax._src.core import primitives, ref_state, tracing
from mlax._src.core.refs import Ref
from mlax._src.core.tracing import _Callee, _name_of, _run
from mlax._src.core.tracer import Tracer
from mlax._src.base import dtypes
from mlax._src.base.tree import registry

_NONE = -1  # the IR's spelling of "not mapped"


def _is_axis_leaf(x):
    return x is None


class _Vmappable:
    """How vmap maps a value of a registered type as a whole rather than leaf
    by leaf (JAX's batching.register_vmappable): all its leaves along one
    axis that `axis(x, spec_axis, what)` checks and normalizes ("in_axes": x
    is the argument; "out_axes": x is the per-example result, its leaves
    placeholders); `to_elt(x, axis)` is the argument as the function sees
    one example of it (its leaves still x's, its metadata the example's);
    `from_elt(x, leaves, axis, size)` the batched result around `leaves`."""

    def __init__(self, axis, to_elt, from_elt):
        self.axis, self.to_elt, self.from_elt = axis, to_elt, from_elt


_vmappable: dict = {}


def register_vmappable(cls, axis, to_elt, from_elt):
    """Maps values of `cls` as wholes (see _Vmappable)."""
    _vmappable[cls] = _Vmappable(axis, to_elt, from_elt)


def _is_vmappable(x):
    return type(x) in _vmappable


def _spec_leaves(spec, tree, what):
    """[(x, axis)] for the leaves x of `tree` (a value of a vmappable type
    counting as one leaf), with the axis (int or None) `spec` gives each:
    `spec` is an int, None, or a pytree prefix of `tree` whose leaves are
    ints or None."""
    if spec is None or isinstance(spec, int):
        parts = [(tree, spec)]
    else:
        spec_leaves, spec_tree = registry.flatten(spec, _is_axis_leaf)
        try:
            subtrees = spec_tree.flatten_up_to(tree)
        except (ValueError, TypeError) as e:
            raise ValueError(
                f"vmap {what} specification must be a tree prefix of the corresponding "
                f"value, got specification {spec} for value tree "
                f"{registry.flatten(tree)[1]}.") from e
        for axis in spec_leaves:
            if axis is not None and not isinstance(axis, int):
                raise TypeError(f"vmap {what} must be an int, None, or (nested) container "
                                f"with those types as leaves, but got {axis!r}.")
        parts = list(zip(subtrees, spec_leaves))
    return [(x, axis) for sub, axis in parts
            for x in registry.flatten(sub, _is_vmappable)[0]]


def _axes_for(spec, tree, what):
    """One axis (int or None) per leaf of `tree`, from `spec` (see
    _spec_leaves); a vmappable value's leaves share its checked axis."""
    axes = []
    for x, axis in _spec_leaves(spec, tree, what):
        rule = _vmappable.get(type(x))
        if rule is None:
            axes.append(axis)
        else:
            a = None if axis is None else rule.axis(x, axis, what)
            axes += [a] * len(registry.flatten(x)[0])
    return axes


def _to_elements(spec, tree):
    """`tree` with each mapped vmappable argument as one example of it."""
    pairs = _spec_leaves(spec, tree, "in_axes")
    if not any(_is_vmappable(x) and a is not None for x, a in pairs):
        return tree
    leaves = [_vmappable[type(x)].to_elt(x, _vmappable[type(x)].axis(x, a, "in_axes"))
              if _is_vmappable(x) and a is not None else x for x, a in pairs]
    return registry.flatten(tree, _is_vmappable)[1].unflatten(leaves)


def _from_elements(spec, shell, results, size):
    """The results' pytree, `shell` the per-example one (placeholder leaves),
    with each vmappable result rebuilt around its batched leaves."""
    pairs = _spec_leaves(spec, shell, "out_axes")
    tree = registry.flatten(shell, _is_vmappable)[1]
    out, it = [], iter(results)
    for x, axis in pairs:
        rule = _vmappable.get(type(x))
        if rule is None:
            out.append(next(it))
            continue
        leaves = [next(it) for _ in range(len(registry.flatten(x)[0]))]
        a = None if axis is None else rule.axis(x, axis, "out_axes")
        out.append(rule.from_elt(x, leaves, a, size))
    return tree.unflatten(out)


def _leaf_axes(in_axes, args, kwargs):
    """The axis (or None) of each leaf of (args, kwargs)."""
    if isinstance(in_axes, tuple):
        axes = []
        for spec, arg in zip(in_axes, args):
            axes += _axes_for(spec, arg, "in_axes")
    else:
        axes = _axes_for(in_axes, args, "in_axes")
    return axes + _axes_for(0, kwargs, "in_axes")  # keyword arguments map over axis 0


def _mapped_refs(in_axes, args, kwargs):
    """{leaf index: axis} of the Refs among the arguments that vmap maps
    over (unmapped ones are closed over, as other unmapped non-arrays)."""
    leaves = registry.flatten((tuple(args), kwargs))[0]
    if not any(type(leaf) is Ref for leaf in leaves):
        return {}
    axes = _leaf_axes(in_axes, args, kwargs)
    return {i: axes[i] for i, leaf in enumerate(leaves)
            if type(leaf) is Ref and axes[i] is not None}


def _vmap_over_refs(vmap_of, fun, out_axes, mapped, args, kwargs):
    """vmap of `fun` over Refs holding a batch: each example gets a Ref of
    its slice; their final values, batched on the same axes, are written
    back."""
    leaves, tree = registry.flatten((tuple(args), kwargs))
    refs = [leaves[i] for i in mapped]
    for i in mapped:
        leaves[i] = ref_state.read(leaves[i])
    args_v, kwargs_v = tree.unflatten(leaves)

    def per_example(*a, **k):
        ls, t = registry.flatten((a, k))
        boxes = []
        for i in mapped:
            boxes.append(Ref(ls[i], primitives.aval_of(ls[i])))
            ls[i] = boxes[-1]
        a, k = t.unflatten(ls)
        return fun(*a, **k), [b._value for b in boxes]

    out, finals = vmap_of(per_example, out_axes=(out_axes, list(mapped.values())))(
        *args_v, **kwargs_v)
    ref_state.write_back(refs, finals)
    return out


def _describe(aval):
    return aval.str_short()


def vmap(fun, in_axes=0, out_axes=0, axis_name=None, axis_size=None, spmd_axis_name=None):
    """Like `jax.vmap`: `fun` mapped over axes of its arguments; `in_axes` and
    `out_axes` are ints, None, or pytree prefixes of the arguments/outputs."""
    if not callable(fun):
        raise TypeError(f"vmap requires a callable as its first argument, got {fun!r}")
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)
    # (A dict is no spec for the positional arguments: JAX's TypeError.)
    if not (in_axes is None or isinstance(in_axes, (int, tuple))) or isinstance(in_axes, bool):
        raise TypeError("vmap in_axes must be an int, None, or a tuple of entries "
                        f"corresponding to the positional arguments passed to the function, "
                        f"but got {in_axes}.")

    spmd_axis_name = _spmd_axes(spmd_axis_name)
    if axis_name is not None:
        try:
            hash(axis_name)
        except TypeError:
            raise TypeError(f"vmap axis_name must be hashable, got {axis_name!r}") from None

    @functools.wraps(fun)
    def vmap_f(*args, **kwargs):
        if isinstance(in_axes, tuple) and len(in_axes) != len(args):
            raise ValueError(
                "vmap in_axes must be an int, None, or a tuple of entries corresponding to "
                f"the positional arguments passed to the function, but got len(in_axes)="
                f"{len(in_axes)}, len(args)={len(args)}")
        mapped = _mapped_refs(in_axes, args, kwargs)
        if mapped:
            return _vmap_over_refs(
                functools.partial(vmap, in_axes=in_axes, axis_name=axis_name,
                                  axis_size=axis_size, spmd_axis_name=spmd_axis_name),
                fun, out_axes, mapped, args, kwargs)
        unmapped = _unmapped_leaves(in_axes, args, kwargs)
        floats = {i: leaf for i, leaf in unmapped if type(leaf) in (float, complex)}
        return _run(lambda *a, **k: _vmap_with_rules(fun, in_axes, out_axes, axis_size, a, k,
                                                     axis_name, spmd_axis_name, floats),
                    f"vmap_{_name_of(fun)}", args, kwargs, transform="vmap",
                    static=[i for i, leaf in unmapped if dtypes.is_python_integer(leaf)])

    return vmap_f


def _spmd_axes(spmd_axis_name):
    """`spmd_axis_name` as JAX takes it (a mesh axis name or a tuple of them)
    as a tuple of names, or None. The mesh they name is the one of the
    sharding constraints and shard_maps the vmap batches (mlax-vectorize
    checks them there)."""
    if spmd_axis_name is None:
        return None
    names = spmd_axis_name if isinstance(spmd_axis_name, tuple) else (spmd_axis_name,)
    if not names or not all(isinstance(n, str) for n in names):
        raise TypeError("vmap spmd_axis_name must be a mesh axis name (a str) or a non-empty "
                        f"tuple of them, got {spmd_axis_name!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"vmap spmd_axis_name {spmd_axis_name!r} names a mesh axis twice")
    return names


# ---------------------------------------------------------------------------
# custom_vmap: user batching rules, run by the vmap whose function calls them
# ---------------------------------------------------------------------------

class _Stop(BaseException):  # not an Exception: user code catching those lets it through
    """Raised by the first custom_vmap call not yet run by its rule: the trace
    of the per-example function stops there and returns its operands."""


class _Pass:
    """One trace of a vmap's per-example function. `provided[i]`: the
    per-example values of the i-th custom_vmap call (its rule's results, run
    by an earlier pass); a call past those stops the pass (`hit`)."""

    def __init__(self, provided):
        self.provided = provided
        self.trace = None
        self.count = 0
        self.hit = None
        self.batched_arg = None

    def call(self, cvmap, args):
        if self.count < len(self.provided):
            out_tree, leaves = self.provided[self.count]
            self.count += 1
            return out_tree.unflatten(list(leaves))
        leaves, tree = registry.flatten(tuple(args))
        flags = [self.is_batched(x) for x in leaves]
        if not any(flags):  # nothing batched reaches it: the function itself (as JAX)
            return cvmap.fun(*args)
        self.hit = (cvmap, tree, leaves, flags)
        raise _Stop()

    def is_batched(self, x):
        if not isinstance(x, Tracer) or x.trace is not self.trace:
            return False  # a constant or a value of an enclosing trace
        return _depends_on(x.value, self.trace.block, self.batched_arg)


_passes: list = []
# Whether any custom_vmap rule was defined: until then a jit in a vmap keeps
# its usual path (callee reuse, no inlining).
rules_defined = False


def active_pass():
    """The vmap pass whose per-example function is being traced right now (the
    current trace is its function's), or None."""
    if _passes and _passes[-1].trace is core.current_trace():
        return _passes[-1]
    return None


class InlineJit(BaseException):
    """Raised by a custom_vmap call inside a jit that a vmap's per-example
    function calls: that jit gives up its private function and runs its
    Python inline, so the call is made in the vmap's trace (where its rule
    can run), as JAX's vmap of a jit uses the rule."""


def under_jit_in_pass():
    """Whether the current trace is a jit (or nest of jits) called directly
    in the per-example function of the innermost vmap pass."""
    if not _passes:
        return False
    target = _passes[-1].trace
    t = core.current_trace()
    if t is target:
        return False
    while t is not None and t is not target:
        if t.traced_for != "jit":
            return False
        t = t.parent
    return t is target


def _depends_on(value, block, batched_arg):
    """Whether `value` (in the function whose entry block is `block`) depends
    on an argument `batched_arg(i)` says is batched."""
    seen, stack = set(), [value]
    while stack:
        v = stack.pop()
        key = hash(v)
        if key in seen:
            continue
        seen.add(key)
        if isinstance(v, ir.BlockArgument):
            if v.owner == block:
                if batched_arg(v.arg_number):
                    return True
                continue
            ops = [v.owner.owner]  # a region's argument: its op's operands
        else:
            ops = [v.owner]
        while ops:
            op = ops.pop()
            stack.extend(op.operands)
            for region in op.regions:  # values a region uses from above
                for b in region.blocks:
                    ops.extend(b.operations)
    return False


def _unmapped_leaves(in_axes, args, kwargs):
    """(position, leaf) of the leaves of (args, kwargs) given in_axes None.
    Their Python ints and bools are passed to the function as they are, as
    JAX's vmap passes its unmapped arguments (a jitted function may take
    them as static arguments); their Python floats and complex numbers come
    back as they are when returned unchanged (see _vmap_traced)."""
    try:
        axes = _leaf_axes(in_axes, args, kwargs)
    except Exception:  # (vmap raises its own error)
        return ()
    leaves = registry.flatten((tuple(args), kwargs))[0]
    return [(i, leaf) for i, (leaf, axis) in enumerate(zip(leaves, axes)) if axis is None]


def _vmap_with_rules(fun, in_axes, out_axes, axis_size, args, kwargs, axis_name=None,
                     spmd_axis_name=None, floats=None):
    """vmap, running the rules of the custom_vmap functions `fun` calls: the
    per-example function is traced up to the first call not run yet, the
    operands of that call are batched by a vmap of that prefix, the rule runs
    on them, and the next trace takes its results as more (mapped or
    unmapped) arguments, until a trace reaches the end of `fun`."""
    provided = []  # per call: (out_tree, rule results as outer values, batched flags)
    while True:
        p = _Pass([])
        result = _vmap_traced(fun, in_axes, out_axes, axis_size, args, kwargs, p, provided,
                              axis_name, spmd_axis_name, floats)
        if p.hit is None:
            return result
        cvmap, tree, leaves, flags, size = p.hit
        operands = iter(result)
        batched_leaves = [next(operands) if isinstance(x, Tracer) and x.trace is p.trace
                          else x for x in leaves]
        in_batched = list(tree.unflatten(flags))
        out, out_batched = cvmap.vmap_rule(size, in_batched, *tree.unflatten(batched_leaves))
        o_leaves, o_tree = registry.flatten(out)
        b_leaves, b_tree = registry.flatten(out_batched)
        if b_tree != o_tree:
            raise ValueError(
                "structure of output value and output batching specification returned by "
                f"custom vmap rule ({_name_of(cvmap.vmap_rule)}) do not match.\n"
                f"Output values: {o_tree}\nBatching spec: {b_tree}")
        for x, b in zip(o_leaves, b_leaves):
            shape = tuple(tracing._leaf_aval(x).shape)
            if b and (not shape or shape[0] != size):
                raise ValueError(
                    f"custom vmap rule ({_name_of(cvmap.vmap_rule)}) returned an output "
                    f"marked batched of shape {shape}, without a leading axis of size {size}")
        provided.append((o_tree, o_leaves, [bool(b) for b in b_leaves]))


def _vmap_traced(fun, in_axes, out_axes, axis_size, args, kwargs, custom=None, provided=(),
                 axis_name=None, spmd_axis_name=None, floats=None):
    """`floats`: the unmapped Python floats and complex numbers among the
    leaves of (args, kwargs) where the eager program made them tracers."""
    # (Arguments of a vmappable type are taken apart into examples below, so
    # the leaf positions `floats` names hold only where there are none.)
    has_vmappable = bool(_vmappable) and any(
        _is_vmappable(x) for x in registry.flatten((tuple(args), kwargs), _is_vmappable)[0])
    floats = {} if has_vmappable else floats or {}
    axes = _leaf_axes(in_axes, args, kwargs)
    if _vmappable:  # (mapped values of vmappable types: as one example of each)
        if isinstance(in_axes, tuple):
            args = tuple(_to_elements(spec, arg) for spec, arg in zip(in_axes, args))
        else:
            args = _to_elements(in_axes, tuple(args))
        kwargs = _to_elements(0, kwargs)
    all_leaves, tree = registry.flatten((tuple(args), kwargs))
    # Unmapped arguments may be anything (a function, a string): closed over,
    # as in JAX. Mapped ones must be arrays.
    for leaf, axis in zip(all_leaves, axes):
        if axis is not None and not tracing.is_array_leaf(leaf):
            raise TypeError(
                f"Argument '{leaf!r}' of type '{type(leaf)}' is not a valid JAX type: vmap "
                "maps over it; give it in_axes None to pass it to the function unmapped.")
    # Unmapped Python ints and bools are passed as they are too (JAX's vmap does).
    dyn = [i for i, leaf in enumerate(all_leaves) if tracing.is_array_leaf(leaf)
           and not (axes[i] is None and dtypes.is_python_integer(leaf))]
    leaves = [all_leaves[i] for i in dyn]
    axes = [axes[i] for i in dyn]
    avals = [x.aval if isinstance(x, Tracer) else tracing._leaf_aval(x) for x in leaves]
    # Normalise the axes and find the batch size.
    norm, sizes = [], []
    for leaf, aval, axis in zip(leaves, avals, axes):
        if axis is None:
            norm.append(_NONE)
            continue
        rank = len(aval.shape)
        a = axis + rank if axis < 0 else axis
        if not 0 <= a < rank:
            raise ValueError(
                f"vmap was requested to map its argument along axis {axis}, which implies "
                f"that its rank should be at least {(axis if axis >= 0 else -axis - 1) + 1}, "
                f"but is only {rank} (its shape is {aval.shape})")
        norm.append(a)
        sizes.append((aval.shape[a], a, aval))
    distinct = sorted({s for s, _, _ in sizes})
    if len(distinct) > 1:
        lines = [f"  * axis {a} of an argument of type {_describe(av)} has size {s}"
                 for s, a, av in sizes]
        raise ValueError("vmap got inconsistent sizes for array axes to be mapped:\n"
                         + "\n".join(lines))
    if distinct:
        size = distinct[0]
        if axis_size is not None and axis_size != size:
            raise ValueError(f"vmap got axis_size={axis_size} but the mapped axes have "
                             f"size {size}")
    elif axis_size is not None:
        size = int(axis_size)
    else:
        raise ValueError("vmap must have at least one non-None value in in_axes")

    n_dyn = len(leaves)
    extra_counts = []
    for _, o_leaves, flags in provided:  # earlier custom_vmap rules' results
        extra_counts.append(len(o_leaves))
        for x, b in zip(o_leaves, flags):
            leaves.append(x)
            avals.append(x.aval if isinstance(x, Tracer) else tracing._leaf_aval(x))
            norm.append(0 if b else _NONE)
    example = [av if a == _NONE else av.update(shape=av.shape[:a] + av.shape[a + 1:])
               for av, a in zip(avals, norm)]
    info = {}

    def flat(*xs):
        # vmap(axis_name=...) binds the name (with the batch size) for the
        # collectives `fun` calls while it is traced.
        if axis_name is None:
            return flat_body(*xs)
        sharding_lib.push_vmap_axis(axis_name, size)
        try:
            return flat_body(*xs)
        finally:
            sharding_lib.pop_vmap_axis()

    def flat_body(*xs):
        # checkify's checks in `fun` leave the callee as extra outputs
        # (mapped), reduced to one error by the checker.
        observed = primitives.ObservedCall(mapped="vmap")
        o_leaves = observed(flat_fun, *xs)
        if "stop_axes" in info:  # traced again once the custom_vmap rule has run
            return o_leaves
        info["observed"] = (observed, len(o_leaves))
        return list(o_leaves) + list(observed.leaves)

    def flat_fun(*xs):
        merged = list(all_leaves)
        for i, x in zip(dyn, xs[:n_dyn]):
            merged[i] = x
        # The unmapped Python floats and complex numbers, traced (as
        # arguments: no program per value): one returned unchanged with
        # out_axes None comes back as the Python scalar, as JAX's vmap
        # passes it through untouched.
        info["scalars"] = {}
        for k, (i, x) in enumerate(zip(dyn, xs)):
            value = floats.get(i, all_leaves[i])
            if norm[k] == _NONE and type(value) in (float, complex):
                info["scalars"][id(x)] = (x, value)
        a, k = tree.unflatten(merged)
        if custom is None:
            out = fun(*a, **k)
        else:
            rest = list(xs[n_dyn:n_dyn + sum(extra_counts)])
            custom.provided, custom.count, custom.hit = [], 0, None
            for (o_tree, _, _), n in zip(provided, extra_counts):
                custom.provided.append((o_tree, rest[:n]))
                rest = rest[n:]
            custom.trace = core.current_trace()
            custom.batched_arg = lambda i: i < len(norm) and norm[i] != _NONE
            _passes.append(custom)
            try:
                out = fun(*a, **k)
            except _Stop:
                cvmap, c_tree, c_leaves, flags = custom.hit
                custom.hit = (cvmap, c_tree, c_leaves, flags, size)
                # the traced operands of the call, batched or not
                out = [x for x in c_leaves if isinstance(x, Tracer) and x.trace is custom.trace]
                info["stop_axes"] = [0 if custom.is_batched(x) else None for x in out]
            finally:
                _passes.pop()
        o_leaves, o_tree = registry.flatten(out)
        info["out"], info["tree"] = out, o_tree
        # float0 results (gradients of integer inputs) are no values: they
        # come back below as float0 zeros of the batched shape, as JAX's.
        info["float0"] = {i: l for i, l in enumerate(o_leaves)
                          if getattr(l, "dtype", None) == dtypes.float0}
        # An unmapped result (out_axes None) that is no value of the trace
        # (a Python scalar, a NumPy array, an array closed over) comes back
        # as it is, as JAX's vmap returns it (a jit around makes it an array).
        info["passed"] = {}
        if "stop_axes" not in info:
            try:
                axes_out = _axes_for(out_axes, out, "out_axes")
            except (ValueError, TypeError):
                axes_out = ()  # (raised again below, where the axes are checked)
            scalars = info["scalars"]
            info["passed"] = {
                i: scalars[id(l)][1] if id(l) in scalars and scalars[id(l)][0] is l else l
                for i, (l, a) in enumerate(zip(o_leaves, axes_out))
                if a is None and i not in info["float0"] and (
                    not isinstance(l, Tracer) or scalars.get(id(l), (None,))[0] is l)}
            for l in info["passed"].values():
                if not tracing.is_array_leaf(l):
                    raise TypeError(f"Output from batched function {l!r} with type "
                                    f"{type(l)} is not a valid JAX type")
        return [l for i, l in enumerate(o_leaves)
                if i not in info["float0"] and i not in info["passed"]]

    # Unmapped arguments keep their values where they are known (as in JAX,
    # where they are not batched tracers); mapped ones are abstract.
    known = [core.known_of(x) if a == _NONE else None for x, a in zip(leaves, norm)]
    # Under a derivative, the mapped function is differentiated in what its
    # arguments carry of it (JAX's batch trace sits over the JVP trace).
    callee = _Callee(flat, leaves, _name_of(fun), avals=example, known=known,
                     transform="vmap", debug=(fun, tracing.debug_tree(args, kwargs, dyn)),
                     differentiated=tracing.active_arguments(leaves))
    out_tree = info["tree"]
    shell = info["out"]  # (the per-example results: their structure and avals)
    if "stop_axes" in info:
        out_axes = info["stop_axes"]
        shell = [0] * len(out_axes)
    all_axes = _axes_for(out_axes, shell, "out_axes")
    float0s = {} if "stop_axes" in info else info["float0"]
    passed = {} if "stop_axes" in info else info["passed"]
    o_axes = []
    for axis, aval in zip([a for i, a in enumerate(all_axes)
                           if i not in float0s and i not in passed],
                          callee.out_avals):
        if axis is None:
            o_axes.append(_NONE)
            continue
        rank = len(aval.shape) + 1
        a = axis + rank if axis < 0 else axis
        if not 0 <= a < rank:
            raise ValueError(f"vmap out_axes specification {axis} is out of range for an "
                             f"output of rank {rank - 1} (batched rank {rank})")
        o_axes.append(a)
    o_axes += [0] * (len(callee.out_avals) - len(o_axes))  # what checkify observed
    out_avals = [av if a == _NONE else av.update(shape=av.shape[:a] + (size,) + av.shape[a:])
                 for av, a in zip(callee.out_avals, o_axes)]
    in_attr = norm + [_NONE] * len(callee.captured)
    outer = callee.outer
    ops = native.ops()
    i64 = ir.IntegerType.get_signless(64)
    with outer.ip, core.user_location():
        op = ops.VmapOp([a.mlir_type() for a in out_avals], callee.symbol, callee.operands,
                        ir.DenseI64ArrayAttr.get(in_attr), ir.DenseI64ArrayAttr.get(o_axes),
                        ir.IntegerAttr.get(i64, size),
                        axis_name=None if axis_name is None else ir.StringAttr.get(str(axis_name)),
                        spmd_axis_name=None if spmd_axis_name is None else ir.ArrayAttr.get(
                            [ir.StringAttr.get(n) for n in spmd_axis_name]))
    results = [Tracer(r, a, outer) for r, a in zip(op.results, out_avals)]
    if "observed" in info:
        observed, n = info["observed"]
        observed.hand_back(results[n:])
        results = results[:n]
    if float0s or passed:
        kept = iter(results)
        results = []
        for i, axis in enumerate(all_axes):
            if i in passed:
                results.append(tracing.PassThrough(passed[i]))
                continue
            if i not in float0s:
                results.append(next(kept))
                continue
            shape = float0s[i].shape
            if axis is not None:
                a = axis + len(shape) + 1 if axis < 0 else axis
                shape = shape[:a] + (size,) + shape[a:]
            results.append(np.zeros(shape, dtypes.float0))
    if _vmappable and "stop_axes" not in info:
        return _from_elements(out_axes, shell, results, size)
    return out_tree.unflatten(results)
