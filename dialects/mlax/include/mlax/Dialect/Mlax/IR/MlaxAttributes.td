//===- MlaxAttributes.td - mlax dialect attributes ------------*- tablegen -*-===//
//
// `#mlax.accuracy`: the accuracy a transcendental op (exp, log, sin, ...)
// is asked to compute its result to (JAX's `lax.Tolerance` /
// `lax.AccuracyMode`); the ops carry it as their optional
// `result_accuracy`, lowered to StableHLO's attribute of that name.
//
// `#mlax.sharding`: how a value is laid out over the devices of a logical
// mesh (JAX's NamedSharding). Ops (`mlax.sharding_constraint`,
// MlaxShardingOps.td) and function arguments and results
// (`mlax.sharding = #mlax.sharding<...>` in their attribute dictionaries)
// carry it; convert-mlax-to-stablehlo turns it into XLA's `mhlo.sharding`
// string. Its C++ (parser, printer, verifiers, the HLO string) is in
// lib/Dialect/Mlax/IR/MlaxAttributes.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MLAX_ATTRIBUTES_TD
#define MLAX_ATTRIBUTES_TD

include "mlax/Dialect/Mlax/IR/MlaxDialect.td"
include "mlir/IR/AttrTypeBase.td"

class Mlax_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Mlax_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Mlax_ResultAccuracyAttr : Mlax_Attr<"ResultAccuracy", "accuracy"> {
  let summary = "the accuracy asked of a transcendental op's result";
  let description = [{
    JAX's `accuracy=` argument of `lax.exp`, `log`, `sin`, `cos`, `tan`,
    `tanh`, `logistic`, `sqrt`, `rsqrt`, `cbrt`, `exp2`, `expm1` and
    `log1p`: either a mode (`highest`: the most accurate implementation the
    backend has; `default`: its usual one) or tolerances (`lax.Tolerance`:
    an absolute tolerance `atol`, a relative one `rtol` and a distance in
    units in the last place `ulps`; any left out is 0, and at least one is
    positive). Tolerances are non-negative (not NaN). The ops that take it
    (their optional `result_accuracy`) lower it to StableHLO's
    `#stablehlo.result_accuracy`; the backend picks an implementation
    meeting it or rejects the program. It changes no result on CPU.
    ```mlir
    #mlax.accuracy<highest>
    #mlax.accuracy<default>
    #mlax.accuracy<atol = 1.000000e-05, ulps = 2>
    ```
  }];
  let parameters = (ins "ResultAccuracyMode":$mode,
                        APFloatParameter<"absolute tolerance (f64)">:$atol,
                        APFloatParameter<"relative tolerance (f64)">:$rtol,
                        "int64_t":$ulps);
  let builders = [
    AttrBuilder<(ins "ResultAccuracyMode":$mode, "double":$atol, "double":$rtol,
                     "int64_t":$ulps), [{
      return $_get($_ctxt, mode, ::llvm::APFloat(atol), ::llvm::APFloat(rtol), ulps);
    }]>];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Whether `accuracy` (null: none given) asks for the highest accuracy:
    /// JAX's derivative rules of expm1, tanh and logistic then use other
    /// formulas.
    static bool isHighest(ResultAccuracyAttr accuracy) {
      return accuracy && accuracy.getMode() == ResultAccuracyMode::HIGHEST;
    }
  }];
}

def Mlax_MeshAttr : Mlax_Attr<"Mesh", "mesh"> {
  let summary = "a logical device mesh: named axes and their sizes";
  let description = [{
    JAX's `Mesh`: its axes in order, each a name and a size (at least 1;
    names unique; at least one axis). Its devices are the logical ids
    `0 .. N-1`, N the product of the sizes, in row-major order over the
    axes (`Mesh(np.arange(N).reshape(sizes), names)`). The collectives
    (`mlax.all_reduce`, ... in MlaxShardingOps.td) carry it; `#mlax.sharding`
    holds the same mesh (`ShardingAttr::getMesh()`), written the same way.
    ```mlir
    #mlax.mesh<["data"=4, "model"=2] >
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"::mlir::StringAttr", "mesh axis names, major to minor">:$axisNames,
    ArrayRefParameter<"int64_t", "mesh axis sizes">:$axisSizes);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The number of devices (the product of the sizes).
    int64_t getNumDevices() const;
    /// The position of mesh axis `name`, or -1.
    int64_t getAxisIndex(::llvm::StringRef name) const;
    /// The mesh as written: `["data"=4, "model"=2]`.
    std::string getMeshString() const;
    /// Checks `axes` (an array of mesh axis names, as the collectives
    /// carry): not empty, each a string naming a mesh axis, none repeated.
    /// `what` names the attribute in the messages.
    ::mlir::LogicalResult verifyAxes(
        ::mlir::Attribute axes, ::llvm::StringRef what,
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError) const;
    /// Checks a `vmap(spmd_axis_name=axes)` against this mesh for a batch
    /// of `batchSize`: valid axes (verifyAxes) whose product of sizes
    /// divides the batch size.
    ::mlir::LogicalResult verifySpmdAxes(
        ::mlir::ArrayAttr axes, int64_t batchSize,
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError) const;
    /// The positions of `axes` (valid, see verifyAxes) in the mesh.
    ::llvm::SmallVector<int64_t> getAxisPositions(::mlir::ArrayAttr axes) const;
    /// The product of the sizes of `axes` (valid): a collective's group size.
    int64_t getGroupSize(::mlir::ArrayAttr axes) const;
    /// The devices' groups over `axes` (valid): one group per combination
    /// of the coordinates on the other mesh axes, in row-major order of
    /// those; within a group, the devices (their logical ids, row-major
    /// mesh positions) ordered by their position along `axes`, row-major
    /// in the order given. XLA's replica groups of a collective.
    ::llvm::SmallVector<::llvm::SmallVector<int64_t>>
    getDeviceGroups(::mlir::ArrayAttr axes) const;
  }];
}

def Mlax_ShardingAttr : Mlax_Attr<"Sharding", "sharding"> {
  let summary = "a named sharding: a logical device mesh and a partition spec";
  let description = [{
    JAX's `NamedSharding(Mesh, PartitionSpec)`. The first list is the mesh:
    its axes in order, each a name and a size (at least 1; names unique; at
    least one axis). Its devices are the logical ids `0 .. N-1`, N the
    product of the sizes, in row-major order over the axes. The second list
    is the partition spec, one entry per leading dimension of the value:
    `{}` (replicated) or the mesh axes the dimension is split over, major to
    minor. It may be shorter than the rank; the missing trailing dimensions
    are replicated. Each mesh axis is used at most once, and a split
    dimension's size must be divisible by the product of its axes' sizes
    (checked against the value's type by the op or function that carries
    it). Mesh axes the spec does not use replicate the value over them.

    ```mlir
    #mlax.sharding<["data"=4, "model"=2], [{"data"}, {} ]>
    #mlax.sharding<["data"=4, "model"=2], [{}, {"data", "model"} ]>
    #mlax.sharding<["x"=8], []>                      // replicated
    ```
    (The examples here have a space before the closing `]`, which ODS
    descriptions need; the printed form has none.)
  }];
  let parameters = (ins
    ArrayRefParameter<"::mlir::StringAttr", "mesh axis names, major to minor">:$axisNames,
    ArrayRefParameter<"int64_t", "mesh axis sizes">:$axisSizes,
    ArrayRefParameter<"::mlir::ArrayAttr",
                      "per dimension, the names of the mesh axes it is split over">:$spec);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The number of devices of the mesh (the product of its sizes).
    int64_t getNumDevices() const;
    /// The position of mesh axis `name`, or -1.
    int64_t getAxisIndex(::llvm::StringRef name) const;
    /// Per spec entry, the positions of its mesh axes (the attribute is valid).
    ::llvm::SmallVector<::llvm::SmallVector<int64_t>> getSpecAxes() const;
    /// Whether `other` has the same mesh (names and sizes, in order).
    bool hasSameMesh(ShardingAttr other) const;
    /// The mesh as written: `["data"=4, "model"=2]`.
    std::string getMeshString() const;
    /// The mesh as a `#mlax.mesh`.
    MeshAttr getMesh() const;
    /// The mesh axes the spec does not use (the value is replicated over
    /// them), in mesh order.
    ::llvm::SmallVector<int64_t> getUnusedAxes() const;
    /// Per dimension of a value of rank `rank`, the number of tiles it is
    /// split into (1 where the spec does not split it).
    ::llvm::SmallVector<int64_t> getTileCounts(int64_t rank) const;
    /// The type of one device's piece of a value of type `global` (each
    /// dimension divided by its tile count; the spec is valid for it).
    ::mlir::RankedTensorType getShardType(::mlir::RankedTensorType global) const;
    /// The type of the whole value whose pieces have type `local` (each
    /// dimension multiplied by its tile count).
    ::mlir::RankedTensorType getGlobalType(::mlir::RankedTensorType local) const;
    /// Checks the spec against a value of `type`: no longer than its rank,
    /// and each split dimension divisible by the size of its mesh axes.
    ::mlir::LogicalResult verifyForType(
        ::mlir::Type type,
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError) const;
    /// XLA's HLO sharding string for a value of `type` (the text of the
    /// `mhlo.sharding` attribute): `{replicated}` when no dimension is split,
    /// else the iota tile form `{devices=[t0,...,(r)]<=[dims](T(perm))
    /// (last_tile_dim_replicate)}`, canonical as XLA prints it.
    std::string toHloSharding(::mlir::RankedTensorType type) const;
    /// The sharding of the same value with a replicated dimension inserted
    /// at `position` (the spec is first padded with `{}` to `rank`, the
    /// rank before the insertion): how a batch dimension is sharded.
    ShardingAttr withReplicatedDimension(int64_t position, int64_t rank) const;
    /// As withReplicatedDimension, but the inserted dimension is split over
    /// mesh axes `axes` (major to minor; none: replicated): how a batch
    /// dimension is sharded under `vmap(spmd_axis_name=axes)`.
    ShardingAttr withSplitDimension(int64_t position, int64_t rank,
                                    ::llvm::ArrayRef<::mlir::StringAttr> axes) const;
    /// Whether the spec splits some dimension over mesh axis `name`.
    bool usesAxis(::llvm::StringRef name) const;
  }];
}

#endif // MLAX_ATTRIBUTES_TD
