"""Programs partitioned over a mesh, as the core layer runs them: the
`mlax.sharding` annotations of @main's arguments and results, and the
executable that lays its arguments out and wraps its results (jit and the
eager transformations share both; see mlax._src.jit.partitioned)."""
from __future__ import annotations

from mlir import ir

from mlax._src.backend import runtime
from mlax._src.backend import sharding as sharding_lib
from mlax._src.core import primitives
from mlax._src.core.array import Array


def _main(module):
    for op in module.body.operations:
        if op.operation.name == "func.func" and op.attributes["sym_name"].value == "main":
            return op
    raise AssertionError("no @main")


def mark_donated(module, indices) -> None:
    """`jax.buffer_donor` on @main's arguments `indices`: XLA may write the
    results into their buffers, which the call then consumes (jit's
    donate_argnums)."""
    if not indices:
        return
    main = _main(module)
    with module.context:
        n_args = len(main.regions[0].blocks[0].arguments)
        old = (list(ir.ArrayAttr(main.attributes["arg_attrs"]))
               if "arg_attrs" in main.attributes else [ir.DictAttr.get({})] * n_args)
        args = []
        for i, d in enumerate(old):
            entries = {a.name: a.attr for a in ir.DictAttr(d)}
            if i in indices:
                entries["jax.buffer_donor"] = ir.BoolAttr.get(True)
            args.append(ir.DictAttr.get(entries))
        main.attributes["arg_attrs"] = ir.ArrayAttr.get(args)


def annotate(module, in_named, in_avals, out_named, out_avals):
    """Puts the shardings on @main's arguments and (where given) results."""
    main = _main(module)
    with module.context:
        n_args = len(main.regions[0].blocks[0].arguments)
        args = []
        for i in range(n_args):
            entries = {}
            if i < len(in_named):
                entries["mlax.sharding"] = ir.Attribute.parse(
                    in_named[i].mlir_text(in_avals[i].ndim))
            args.append(ir.DictAttr.get(entries))
        main.attributes["arg_attrs"] = ir.ArrayAttr.get(args)
        if any(s is not None for s in out_named):
            results = []
            for s, a in zip(out_named, out_avals):
                entries = {} if s is None else {
                    "mlax.sharding": ir.Attribute.parse(s.mlir_text(a.ndim))}
                results.append(ir.DictAttr.get(entries))
            main.attributes["res_attrs"] = ir.ArrayAttr.get(results)


class MeshExecutable:
    """One compiled specialisation of a jitted function over a mesh."""

    __slots__ = ("exe", "mesh", "in_avals", "in_named", "out_avals", "out_tree",
                 "out_named", "stablehlo", "stats", "kept", "device", "_handlers")

    def __init__(self, exe, mesh, in_avals, in_named, out_avals, out_tree, out_named,
                 stablehlo, stats, kept):
        self.exe = exe
        self.mesh = mesh
        self.in_avals = in_avals
        self.in_named = in_named
        self.out_avals = out_avals
        self.out_tree = out_tree
        self.stablehlo = stablehlo
        self.stats = stats
        self.kept = kept
        self.device = None
        # Results XLA laid out (unspecified out_shardings) get the
        # NamedSharding over this mesh that is the same layout.
        # (None: a program XLA compiled for one device, a mesh of one.)
        chosen = exe.get_output_shardings()
        named = []
        for i, (given, aval) in enumerate(zip(out_named, out_avals)):
            if given is None and chosen is None:
                given = sharding_lib.NamedSharding(mesh, sharding_lib.PartitionSpec())
            elif given is None:
                given = sharding_lib.named_sharding_from_op_sharding(chosen[i], mesh,
                                                                     aval.ndim)
                if given is None:
                    raise NotImplementedError(
                        f"mlax: XLA laid result {i} out as {chosen[i]}, which no "
                        f"PartitionSpec over {mesh} describes; pass out_shardings")
            named.append(given)
        self.out_named = tuple(named)
        self._handlers = runtime.mesh_result_handlers(tuple(out_avals), self.out_named)

    def buffers(self, leaves, kept=None):
        idx = range(len(leaves)) if kept is None else kept
        bufs = []
        for i in idx:
            leaf, aval, named = leaves[i], self.in_avals[i], self.in_named[i]
            if type(leaf) is Array:
                buf = leaf._buf
                if not (runtime.is_mesh_buffer(buf) and runtime.sharding_of(buf) == named):
                    buf = runtime.reshard(buf, aval, named)
            else:
                buf = runtime.device_put_named(primitives.to_numpy(leaf, aval), named)
            bufs.append(buf)
        return bufs

    def __call__(self, leaves):
        outs = runtime.execute(self.exe, self.buffers(leaves, self.kept), self._handlers)
        return self.out_tree.unflatten([Array(b, a) for b, a in zip(outs, self.out_avals)])


