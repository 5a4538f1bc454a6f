//===- MlaxAttributes.td - mlax dialect attributes ------------*- tablegen -*-===//
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
  }];
}

#endif // MLAX_ATTRIBUTES_TD
