"""The compiler side of SPMD sharding (issue 17): `#mlax.sharding` on function
arguments/results and `mlax.sharding_constraint`, parsed in mlax's context,
lowered by mlax's pipeline and compiled by XLA's SPMD partitioner on an
8-device CPU client. The HLO sharding strings are checked against JAX's own
(`NamedSharding._to_xla_hlo_sharding` over an AbstractMesh), their device
order against XLA's reading of them, and the compiled program's per-device
shapes against the spec."""
from __future__ import annotations

import re

import numpy as np
import pytest
from mlir import ir

import jaxlib
from jaxlib import xla_client as xc

from mlax._src.backend import compiler, native

MESH = '["data"=4, "model"=2]'
MESH_SHAPE = {"data": 4, "model": 2}


def sharding(spec: str, mesh: str = MESH) -> str:
    return f"#mlax.sharding<{mesh}, {spec}>"


def lower(text: str) -> str:
    """`text` (an mlax module) through mlax's pipeline, as StableHLO text."""
    with native.context():
        module = ir.Module.parse(text)
    return compiler.to_stablehlo(module)


@pytest.fixture(scope="module")
def client():
    return xc.make_cpu_client(num_devices=8)


def compile_hlo(client, stablehlo: str) -> str:
    """XLA's optimized HLO of `stablehlo`, partitioned over 8 devices."""
    devices = client.local_devices()[:8]
    opts = xc.CompileOptions()
    opts.num_replicas = 1
    opts.num_partitions = 8
    opts.executable_build_options.use_spmd_partitioning = True
    opts.device_assignment = xc.DeviceAssignment.create(np.arange(8).reshape(1, 8))
    exe = client.compile_and_load(stablehlo, jaxlib._jax.DeviceList(tuple(devices)), opts)
    return exe.hlo_modules()[0].to_string()


def entry_layout(hlo: str) -> str:
    return re.search(r"entry_computation_layout=\{(.*?)\}(?:,|$)", hlo, re.M).group(1)


def jax_hlo_sharding(axes: tuple, ndim: int, mesh=(("data", 4), ("model", 2))) -> str:
    pytest.importorskip("jax")
    from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec

    abstract = AbstractMesh(tuple(s for _, s in mesh), tuple(n for n, _ in mesh))
    return str(NamedSharding(abstract, PartitionSpec(*axes))._to_xla_hlo_sharding(ndim))


# (the mlax spec, the same as a JAX PartitionSpec, the HLO string, the
# per-device shape of an 8x8 value)
CASES = [
    ('[{"data"}, {}]', ("data", None), "{devices=[4,1,2]<=[8] last_tile_dim_replicate}", (2, 8)),
    ('[{}, {"model"}]', (None, "model"),
     "{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}", (8, 4)),
    ('[{"data"}, {"model"}]', ("data", "model"), "{devices=[4,2]<=[8]}", (2, 4)),
    ('[{"model"}, {"data"}]', ("model", "data"), "{devices=[2,4]<=[4,2]T(1,0)}", (4, 2)),
    ('[{"data", "model"}]', (("data", "model"),), "{devices=[8,1]<=[8]}", (1, 8)),
    ('[{"model", "data"}]', (("model", "data"),), "{devices=[8,1]<=[4,2]T(1,0)}", (1, 8)),
    ("[]", (), "{replicated}", (8, 8)),
]


def spec_axes(spec: str) -> list[list[str]]:
    return [re.findall(r'"(\w+)"', entry) for entry in re.findall(r"\{[^}]*\}", spec)]


@pytest.mark.parametrize("spec, jax_spec, hlo_sharding, shard_shape", CASES,
                         ids=[c[0] for c in CASES])
def test_arguments_results_and_constraints_partition_as_jax(client, spec, jax_spec,
                                                            hlo_sharding, shard_shape):
    s = sharding(spec)
    text = f"""
func.func @main(%x: tensor<8x8xf32> {{mlax.sharding = {s}}})
    -> (tensor<8x8xf32> {{mlax.sharding = {s}}}) {{
  %0 = mlax.sharding_constraint %x {{sharding = {s}}} : tensor<8x8xf32>
  %1 = mlax.sin %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}}"""
    stablehlo = lower(text)
    assert "mhlo.num_partitions = 8 : i32" in stablehlo
    assert "mhlo.num_replicas = 1 : i32" in stablehlo
    assert stablehlo.count(f'mhlo.sharding = "{hlo_sharding}"') == 3  # argument, result, constraint
    assert 'call_target_name = "Sharding"' in stablehlo
    assert "mlax" not in stablehlo.replace("mlax.kept_arguments", "")
    # The string is JAX's for the same NamedSharding, and XLA's canonical form.
    assert hlo_sharding == jax_hlo_sharding(jax_spec, 2)
    assert str(xc.HloSharding.from_string(hlo_sharding)) == hlo_sharding
    # XLA partitions the program: each device holds a shard of that shape.
    shape = "f32[%d,%d]{1,0}" % shard_shape
    assert entry_layout(compile_hlo(client, stablehlo)) == f"({shape})->{shape}"


@pytest.mark.parametrize("spec", [c[0] for c in CASES if c[0] != "[]"])
def test_device_order_is_row_major_over_the_mesh(spec):
    """Device n is at mesh coordinates unravel_index(n, mesh shape); the tile
    of a dimension split over axes (a, b) is a's coordinate major, b's minor;
    the replicated axes index the last tile dimension. XLA's reading of the
    string must put each device at that tile."""
    hlo_sharding = next(c[2] for c in CASES if c[0] == spec)
    parsed = xc.HloSharding.from_string(hlo_sharding)
    dims = list(parsed.tile_assignment_dimensions())
    tiles = np.array(parsed.tile_assignment_devices()).reshape(dims)
    names, sizes = list(MESH_SHAPE), list(MESH_SHAPE.values())
    axes = spec_axes(spec)
    axes += [[]] * (2 - len(axes))
    unused = [a for a in names if not any(a in entry for entry in axes)]
    for n in range(8):
        coords = dict(zip(names, np.unravel_index(n, sizes)))

        def index(group):
            return int(np.ravel_multi_index([coords[a] for a in group],
                                            [MESH_SHAPE[a] for a in group])) if group else 0
        where = [index(group) for group in axes] + ([index(unused)] if unused else [])
        assert tiles[tuple(where)] == n, (spec, n, where)


def test_three_axis_mesh_strings_are_jaxs():
    mesh = '["a"=2, "b"=2, "c"=2]'
    jax_mesh = (("a", 2), ("b", 2), ("c", 2))
    cases = {
        '[{"b", "c"}, {"a"}]': (("b", "c"), "a"),
        '[{"c"}, {"a", "b"}]': ("c", ("a", "b")),
        '[{}, {"b"}]': (None, "b"),
        '[{"a"}]': ("a",),
        '[{"c", "a"}]': (("c", "a"),),
    }
    constraints = "\n".join(
        f"  %{i + 1} = mlax.sharding_constraint %{i if i else 'x'} "
        f"{{sharding = {sharding(spec, mesh)}}} : tensor<8x8xf32>"
        for i, spec in enumerate(cases))
    stablehlo = lower(f"""
func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {{
{constraints}
  return %{len(cases)} : tensor<8x8xf32>
}}""")
    found = re.findall(r'mhlo.sharding = "([^"]*)"', stablehlo)
    assert found == [jax_hlo_sharding(axes, 2, jax_mesh) for axes in cases.values()]


def test_sum_over_a_sharded_dimension_is_an_all_reduce(client):
    s = sharding('[{"data"}, {"model"}]')
    stablehlo = lower(f"""
func.func @main(%x: tensor<8x8xf32> {{mlax.sharding = {s}}})
    -> (tensor<8xf32> {{mlax.sharding = {sharding("[]")}}}) {{
  %0 = mlax.reduce_sum %x, axes = [0] : tensor<8x8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}}""")
    hlo = compile_hlo(client, stablehlo)
    assert entry_layout(hlo) == "(f32[2,4]{1,0})->f32[8]{0}"
    assert "all-reduce" in hlo


def test_python_builds_the_attribute_and_the_op():
    ops = native.ops()
    with native.context(), ir.Location.unknown():
        attr = ir.Attribute.parse(sharding('[{"data"}]'))
        assert str(attr) == '#mlax.sharding<["data"=4, "model"=2], [{"data"}]>'
        module = ir.Module.parse("""
func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %x : tensor<8x8xf32>
}""")
        main = module.body.operations[0]
        ret = main.regions[0].blocks[0].operations[0]
        with ir.InsertionPoint(ret):
            y = ops.ShardingConstraintOp(main.arguments[0], attr).result
        ret.operation.replace_uses_of_with(main.arguments[0], y)
        assert module.operation.verify()
        assert ('mlax.sharding_constraint %arg0 {sharding = #mlax.sharding<["data"=4, '
                '"model"=2], [{"data"}]>} : tensor<8x8xf32>') in str(module)
        with pytest.raises(ir.MLIRError, match='names mesh axis "x", which is not in the mesh'):
            ir.Attribute.parse(sharding('[{"x"}]'))


def test_two_meshes_in_one_program_are_an_error():
    text = f"""
func.func @main(%x: tensor<8xf32> {{mlax.sharding = {sharding('[{"data"}]')}}}) -> tensor<8xf32> {{
  %0 = mlax.sharding_constraint %x {{sharding = {sharding('[{"x"}]', '["x"=8]')}}} : tensor<8xf32>
  return %0 : tensor<8xf32>
}}"""
    with pytest.raises(compiler.CompileError,
                       match=r'sharded over the mesh \["x"=8\], but the module\'s shardings use the '
                             r'mesh \["data"=4, "model"=2\]'):
        lower(text)
