//===- MlaxShardingOps.td - sharding annotations --------------*- tablegen -*-===//
//
// `mlax.sharding_constraint`: `jax.lax.with_sharding_constraint`, a value
// that XLA's SPMD partitioner must lay out as `#mlax.sharding` says
// (MlaxAttributes.td). Included from MlaxOps.td.
//
//===----------------------------------------------------------------------===//

def Mlax_ShardingConstraintOp : Mlax_Op<"sharding_constraint",
    [Pure, SameOperandsAndResultType, InferTypeOpInterface, Mlax_Derivative,
     Mlax_Batching, Mlax_SpmdBatching]> {
  let summary = "the identity, whose result must have the given sharding";
  let description = [{
    `jax.lax.with_sharding_constraint`: returns its operand, and tells XLA's
    SPMD partitioner to lay the result out over the devices as `sharding`
    says. The sharding is checked against the operand's type (its spec no
    longer than the rank, every split dimension divisible by its mesh axes'
    size).
    ```mlir
    %y = mlax.sharding_constraint %x {sharding = #mlax.sharding<["data"=4, "model"=2], [{"data"}, {} ]>}
        : tensor<8x6xf32>
    ```
    Derivatives are constrained alike (the tangent in forward mode, the
    cotangent in reverse mode); batching inserts a replicated entry for the
    batch dimension, or, under `vmap(spmd_axis_name=...)`, an entry
    splitting it over those mesh axes. A constraint of a constraint with the same sharding
    folds to one; constants are not folded through it, as JAX keeps it.
    Lowered to `stablehlo.custom_call @Sharding` with the `mhlo.sharding`
    string, as JAX emits it.
  }];
  let arguments = (ins Mlax_Tensor:$operand, Mlax_ShardingAttr:$sharding);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// shard_map and the SPMD collectives (jax.shard_map, jax.lax.psum ...)
//
// Inside a shard_map's body every device runs the callee on its own pieces;
// the collectives exchange data between the devices of a group. A
// collective names mesh axes (`axes`, major to minor) of its `mesh`; the
// group of a device is the devices sharing its coordinates on every other
// mesh axis, and its position in the group is its coordinates on `axes`,
// row-major in the order given (the index `mlax.axis_index` returns and
// `ppermute`'s pairs use).
//===----------------------------------------------------------------------===//

def Mlax_ShardMapOp : Mlax_Op<"shard_map",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "run a function on every device's pieces of its operands (jax.shard_map)";
  let description = [{
    `jax.shard_map(callee, mesh, in_specs, out_specs)` in full manual mode
    over every mesh axis: the operands are global arrays, laid out as
    `in_shardings` say (one `#mlax.sharding` per operand); every device calls
    `@callee` on its pieces (a dimension split over mesh axes of total size
    t has 1/t of the global size there) and returns its pieces of the
    results, which `out_shardings` assemble into global arrays (a result
    dimension is the callee's result dimension times its tile count). A
    mesh axis a sharding does not name replicates the value over it: every
    device along that axis holds (for a result: must return) the same piece.
    All shardings use one mesh.
    ```mlir
    %r = mlax.shard_map @body(%a, %b)
        in [ #mlax.sharding<["data"=4, "model"=2], [{"data"} ]>, #mlax.sharding<["data"=4, "model"=2], [] >]
        out [ #mlax.sharding<["data"=4, "model"=2], [{"data"} ]>]
        : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
    func.func private @body(%a: tensor<2x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32>
    ```
    Forward mode is the shard_map of the callee's jvp; reverse mode the
    shard_map of its vjp, with cotangents of results replicated over mesh
    axes divided by their size and cotangents of operands replicated over
    mesh axes summed over them (`mlax.all_reduce`). Batching vmaps the
    callee and replicates the batch dimension. Lowered to what JAX hands
    XLA's SPMD partitioner: `custom_call @Sharding` + `@SPMDFullToShardShape`
    per operand, a call of the body, `@Sharding` + `@SPMDShardToFullShape`
    per result.
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<Mlax_Tensor>:$operands,
                       TypedArrayAttrBase<Mlax_ShardingAttr, "shardings">:$in_shardings,
                       TypedArrayAttrBase<Mlax_ShardingAttr, "shardings">:$out_shardings);
  let results = (outs Variadic<Mlax_Tensor>:$results);
  let assemblyFormat = [{
    $callee `(` $operands `)` `in` $in_shardings `out` $out_shardings attr-dict `:`
    functional-type($operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The mesh of the shardings (null when there are none).
    MeshAttr getMesh();
    ShardingAttr getInSharding(unsigned i) {
      return ::llvm::cast<ShardingAttr>(getInShardings()[i]);
    }
    ShardingAttr getOutSharding(unsigned i) {
      return ::llvm::cast<ShardingAttr>(getOutShardings()[i]);
    }
  }];
}

def Mlax_AllReduceKind : I32EnumAttr<"AllReduceKind",
    "the reduction a `mlax.all_reduce` applies (jax.lax.psum / pmax / pmin)", [
      I32EnumAttrCase<"Sum", 0, "sum">, I32EnumAttrCase<"Max", 1, "max">,
      I32EnumAttrCase<"Min", 2, "min">]> {
  let cppNamespace = "::mlir::mlax";
}

// A collective's axes are mesh axes of `mesh` (an enclosing shard_map's) or
// vmap axes, listed with their sizes in `vmap_axes` (a `#mlax.mesh` used as
// named sizes): `mlax-vectorize`, expanding the `mlax.vmap` whose `axis_name`
// a collective names, rewrites it into ordinary ops over the batch
// dimension (`NamedAxisOpInterface`), keeping a collective over the axes
// left, if any. A collective still naming a vmap axis at the lowering is an
// error (nothing binds the name).
defvar Mlax_NamedAxisDecl = [{
    /// The group size: the product of the sizes of the axes.
    int64_t getGroupSize();
    /// The size of axis `name` (a mesh or vmap axis the op names).
    int64_t getAxisSize(::llvm::StringRef name);
}];

class Mlax_CollectiveOp<string mnemonic, list<Trait> traits = []>
    : Mlax_Op<mnemonic, !listconcat([Pure, Mlax_Derivative, Mlax_Batching,
                                     Mlax_NamedAxis], traits)> {
  let extraClassDeclaration = Mlax_NamedAxisDecl;
}

def Mlax_AllReduceOp : Mlax_CollectiveOp<"all_reduce",
    [SameOperandsAndResultType, InferTypeOpInterface]> {
  let summary = "reduce over the devices of each group (jax.lax.psum / pmax / pmin)";
  let description = [{
    Every device of a group gets the elementwise sum, max or min of the
    group's operands.
    ```mlir
    %y = mlax.all_reduce sum %x in #mlax.mesh<["data"=4, "model"=2]> over ["data"] : tensor<8xf32>
    ```
    The sum is linear: its tangent is the sum of the tangents, and its
    transpose the sum of the cotangents. max and min are not differentiated
    (as JAX's pmax and pmin). Lowered to `stablehlo.all_reduce`.
  }];
  let arguments = (ins Mlax_AllReduceKind:$kind, Mlax_Tensor:$operand, StrArrayAttr:$axes,
                       OptionalAttr<Mlax_MeshAttr>:$mesh,
                       OptionalAttr<Mlax_MeshAttr>:$vmap_axes);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = [{
    $kind $operand (`in` qualified($mesh)^)? (`vmap` qualified($vmap_axes)^)? `over` $axes attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Mlax_AllGatherOp : Mlax_CollectiveOp<"all_gather", [InferTypeOpAdaptor]> {
  let summary = "gather the group's operands (jax.lax.all_gather)";
  let description = [{
    `jax.lax.all_gather(x, axes, axis=dimension, tiled=tiled)`: every device
    gets the operands of its group, in group order, stacked along a new
    dimension of the group's size inserted at `dimension` (`0 <= dimension
    <= rank`), or, `tiled`, concatenated along `dimension` (`< rank`).
    ```mlir
    %y = mlax.all_gather %x in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {dimension = 0 : i64, tiled}
        : tensor<2x3xf32> -> tensor<8x3xf32>
    ```
    Linear; its transpose is `mlax.reduce_scatter` with the same dimension
    and tiling. Lowered to `stablehlo.all_gather` (after a reshape adding
    the new dimension when not tiled).
  }];
  let arguments = (ins Mlax_Tensor:$operand, StrArrayAttr:$axes, OptionalAttr<Mlax_MeshAttr>:$mesh,
                       I64Attr:$dimension, UnitAttr:$tiled,
                       OptionalAttr<Mlax_MeshAttr>:$vmap_axes);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = [{
    $operand (`in` qualified($mesh)^)? (`vmap` qualified($vmap_axes)^)? `over` $axes attr-dict `:` type($operand) `->` type($result)
  }];
}

def Mlax_ReduceScatterOp : Mlax_CollectiveOp<"reduce_scatter", [InferTypeOpAdaptor]> {
  let summary = "sum over the group and scatter the pieces (jax.lax.psum_scatter)";
  let description = [{
    `jax.lax.psum_scatter(x, axes, scatter_dimension=dimension, tiled=tiled)`:
    the group's operands are summed and the device at position i of the
    group gets piece i of the sum along `dimension`. Not tiled, that
    dimension's size must be the group size and the piece drops it; tiled,
    it must be divisible by the group size and is divided by it.
    ```mlir
    %y = mlax.reduce_scatter %x in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {dimension = 0 : i64}
        : tensor<4x3xf32> -> tensor<3xf32>
    ```
    Linear; its transpose is `mlax.all_gather` with the same dimension and
    tiling. Lowered to `stablehlo.reduce_scatter` (then a reshape dropping
    the dimension when not tiled).
  }];
  let arguments = (ins Mlax_Tensor:$operand, StrArrayAttr:$axes, OptionalAttr<Mlax_MeshAttr>:$mesh,
                       I64Attr:$dimension, UnitAttr:$tiled,
                       OptionalAttr<Mlax_MeshAttr>:$vmap_axes);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = [{
    $operand (`in` qualified($mesh)^)? (`vmap` qualified($vmap_axes)^)? `over` $axes attr-dict `:` type($operand) `->` type($result)
  }];
}

def Mlax_PpermuteOp : Mlax_CollectiveOp<"ppermute",
    [SameOperandsAndResultType, InferTypeOpInterface]> {
  let summary = "send each device's operand to another of its group (jax.lax.ppermute)";
  let description = [{
    `jax.lax.ppermute(x, axes, perm)`: `pairs` is `perm` flattened, `[src0,
    dst0, src1, dst1, ...]`, positions within the group (`0 <=` position `<`
    the group size); sources are distinct and so are destinations. The
    device at position dst gets the operand of the device at position src;
    a device no pair sends to gets zeros.
    ```mlir
    %y = mlax.ppermute %x in #mlax.mesh<["data"=4, "model"=2]> over ["data"] {pairs = array<i64: 0, 1, 1, 2, 2, 3, 3, 0>}
        : tensor<8xf32>
    ```
    Linear; its transpose is the ppermute with every pair reversed. Lowered
    to `stablehlo.collective_permute`.
  }];
  let arguments = (ins Mlax_Tensor:$operand, StrArrayAttr:$axes, OptionalAttr<Mlax_MeshAttr>:$mesh,
                       DenseI64ArrayAttr:$pairs, OptionalAttr<Mlax_MeshAttr>:$vmap_axes);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = [{
    $operand (`in` qualified($mesh)^)? (`vmap` qualified($vmap_axes)^)? `over` $axes attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Mlax_AllToAllOp : Mlax_CollectiveOp<"all_to_all", [InferTypeOpAdaptor]> {
  let summary = "split, exchange within the group, concatenate (jax.lax.all_to_all)";
  let description = [{
    `jax.lax.all_to_all(x, axes, split_axis=split_dimension,
    concat_axis=concat_dimension, tiled=tiled)`: each device splits its
    operand along `split_dimension` into group-size pieces and sends piece
    j to the device at position j of its group, which puts what it gets
    from position i at place i along `concat_dimension`. Tiled: the split
    dimension (divisible by the group size) shrinks by the group size and
    the concat dimension grows by it. Not tiled (JAX's default): the split
    dimension's size must be the group size; it is removed and a dimension
    of the group size is inserted at `concat_dimension` (a position in the
    result, `< rank`).
    ```mlir
    %y = mlax.all_to_all %x in #mlax.mesh<["data"=4, "model"=2]> over ["model"]
        {concat_dimension = 1 : i64, split_dimension = 0 : i64, tiled}
        : tensor<4x3xf32> -> tensor<2x6xf32>
    ```
    Linear; its transpose swaps the split and concat dimensions. Lowered to
    `stablehlo.all_to_all` (with reshapes when not tiled, as JAX).
  }];
  let arguments = (ins Mlax_Tensor:$operand, StrArrayAttr:$axes, OptionalAttr<Mlax_MeshAttr>:$mesh,
                       I64Attr:$split_dimension, I64Attr:$concat_dimension, UnitAttr:$tiled,
                       OptionalAttr<Mlax_MeshAttr>:$vmap_axes);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = [{
    $operand (`in` qualified($mesh)^)? (`vmap` qualified($vmap_axes)^)? `over` $axes attr-dict `:` type($operand) `->` type($result)
  }];
}

def Mlax_AxisIndexOp : Mlax_Op<"axis_index", [Pure, InferTypeOpAdaptor, Mlax_NamedAxis]> {
  let summary = "this device's position along mesh axes (jax.lax.axis_index)";
  let description = [{
    The device's position within its group over `axes`: its coordinates on
    `axes`, row-major in the order given, as an `i32` scalar.
    ```mlir
    %i = mlax.axis_index in #mlax.mesh<["data"=4, "model"=2]> over ["data", "model"]
    ```
    Over a vmap axis (`vmap #mlax.mesh<["i"=4]> over ["i"]`) it is the
    example's index: mlax-vectorize makes it an iota along the batch.
    No operands: never batched, no derivative. Lowered to
    `stablehlo.partition_id` and integer arithmetic.
  }];
  let arguments = (ins StrArrayAttr:$axes, OptionalAttr<Mlax_MeshAttr>:$mesh,
                       OptionalAttr<Mlax_MeshAttr>:$vmap_axes);
  let results = (outs 0DTensorOf<[I32]>:$result);
  let assemblyFormat = "(`in` qualified($mesh)^)? (`vmap` qualified($vmap_axes)^)? `over` $axes attr-dict";
  let extraClassDeclaration = Mlax_NamedAxisDecl;
}
