//===- MlaxInterfaces.td - mlax op interfaces -----------------------------===//
//
// The per-op rules that the transformation passes read. A pass never switches
// on op names: it asks the op, through its interface.
//
//===----------------------------------------------------------------------===//

#ifndef MLAX_INTERFACES_TD
#define MLAX_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Mlax_DifferentiableOpInterface : OpInterface<"DifferentiableOpInterface"> {
  let cppNamespace = "::mlir::mlax";
  let description = [{
    The derivative rules `mlax-autodiff` uses. A null `Value` stands for a
    zero (co)tangent, so zeros cost nothing until a rule has to materialise
    one. Rules are called on the op as it stands in the derivative function
    being generated (its operands and results are the primal values there)
    and emit ordinary `mlax` ops at the op's location; derivative code is
    therefore differentiable again, which is how higher derivatives work.

    Tangents and cotangents have the type of their primal value. Values whose
    element type is not a real float carry none: the pass never asks a rule
    for them.

    Elementwise ops implement only `applyPartial`: multiplication by
    d(result)/d(operand i), a diagonal and hence self-adjoint linear map, from
    which the default `jvp` (sum over operands) and `vjp` (one map per operand)
    follow. Every other op implements `jvp` and `vjp` directly.
  }];
  let methods = [
    InterfaceMethod<[{
        Elementwise ops: returns `t` multiplied by d(result)/d(operand
        `operandIndex`), or null where that derivative is zero.
      }], "::mlir::Value", "applyPartial",
      (ins "::mlir::OpBuilder &":$b, "unsigned":$operandIndex, "::mlir::Value":$t),
      [{}], [{ return ::mlir::Value(); }]>,
    InterfaceMethod<[{
        Forward mode: given one tangent per operand (null = zero), appends one
        tangent per result (null = zero) to `resultTangents`.
      }], "::mlir::LogicalResult", "jvp",
      (ins "::mlir::OpBuilder &":$b, "::mlir::ArrayRef<::mlir::Value>":$tangents,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$resultTangents),
      [{}], [{
        return ::mlir::mlax::ad::elementwiseJvp($_op.getOperation(), b, tangents,
                                                resultTangents);
      }]>,
    InterfaceMethod<[{
        Reverse mode: given one cotangent per result (null = zero), appends one
        cotangent per operand (null = zero) to `operandCotangents`.
      }], "::mlir::LogicalResult", "vjp",
      (ins "::mlir::OpBuilder &":$b, "::mlir::ArrayRef<::mlir::Value>":$cotangents,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$operandCotangents),
      [{}], [{
        return ::mlir::mlax::ad::elementwiseVjp($_op.getOperation(), b, cotangents,
                                                operandCotangents);
      }]>,
  ];
}

def Mlax_BatchableOpInterface : OpInterface<"BatchableOpInterface"> {
  let cppNamespace = "::mlir::mlax";
  let description = [{
    The batching rule `mlax-vectorize` uses. It is called when at least one
    operand is batched; a batched value has the batch dimension (of size
    `batchSize`) in front of its unbatched shape. The rule emits the batched
    computation and appends one value per result, every one batched.

    The default, for elementwise ops, broadcasts the unbatched operands that
    are not scalars the op may broadcast itself, and re-creates the op with
    batched result types. Ops whose batched form is a different op
    (dot_general with an extra batch dimension, reductions over shifted
    axes, ...) implement `batch` themselves and emit that op directly.
  }];
  let methods = [
    InterfaceMethod<[{
        Appends the batched results to `results`. `operands` are the op's
        operands in the batched function, `batched[i]` says whether operand
        `i` has the leading batch dimension.
      }], "::mlir::LogicalResult", "batch",
      (ins "::mlir::OpBuilder &":$b, "::mlir::ValueRange":$operands,
           "::mlir::ArrayRef<bool>":$batched, "int64_t":$batchSize,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$results),
      [{}], [{
        return ::mlir::mlax::vec::elementwiseBatch($_op.getOperation(), b, operands,
                                                   batched, batchSize, results);
      }]>,
  ];
}

def Mlax_SpmdBatchableOpInterface : OpInterface<"SpmdBatchableOpInterface"> {
  let cppNamespace = "::mlir::mlax";
  let description = [{
    An op whose batching depends on how the batch is laid out over a device
    mesh (`mlax.sharding_constraint`). `mlax-vectorize`, expanding an
    `mlax.vmap` with a `spmd_axis_name` (`jax.vmap(spmd_axis_name=...)`),
    calls `batchOverSpmdAxes` instead of the ordinary batching rule when an
    operand is batched: the batch dimension is split over those mesh axes
    rather than replicated.
  }];
  let methods = [
    InterfaceMethod<[{
        As `BatchableOpInterface::batch`, the batch dimension split over the
        mesh axes `spmdAxes` (names, major to minor). Fails with an error at
        the op when the axes are not in its mesh, are already used by its
        sharding, or their size does not divide `batchSize`.
      }], "::mlir::LogicalResult", "batchOverSpmdAxes",
      (ins "::mlir::OpBuilder &":$b, "::mlir::ValueRange":$operands,
           "::mlir::ArrayRef<bool>":$batched, "int64_t":$batchSize,
           "::mlir::ArrayAttr":$spmdAxes,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$results)>,
  ];
}

def Mlax_NamedAxisOpInterface : OpInterface<"NamedAxisOpInterface"> {
  let cppNamespace = "::mlir::mlax";
  let description = [{
    A collective over named axes (`mlax.all_reduce`, `all_gather`, ...,
    `axis_index`), some of which may be vmap axes (its `vmap_axes`).
    `mlax-vectorize`, batching the callee of an `mlax.vmap` whose
    `axis_name` the op names, calls `batchOverVmapAxis` instead of the
    ordinary batching rule, whether or not an operand is batched: the
    collective over the batch becomes ops over the batch dimension, and a
    collective over the axes left (if any) stays.
  }];
  let methods = [
    InterfaceMethod<[{
        Whether `name` is one of the vmap axes the op names.
      }], "bool", "namesVmapAxis", (ins "::llvm::StringRef":$name), [{}], [{
        auto vmap = $_op.getVmapAxesAttr();
        return vmap && vmap.getAxisIndex(name) >= 0;
      }]>,
    InterfaceMethod<[{
        The op with its vmap axis `axis` (of size `batchSize`) replaced by
        the batch dimension in front of the batched operands. Appends one
        value per result to `results` and whether it is batched (a psum's
        result is the same for every example: not batched) to
        `resultBatched`.
      }], "::mlir::LogicalResult", "batchOverVmapAxis",
      (ins "::mlir::OpBuilder &":$b, "::mlir::ValueRange":$operands,
           "::mlir::ArrayRef<bool>":$batched, "int64_t":$batchSize,
           "::llvm::StringRef":$axis,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$results,
           "::llvm::SmallVectorImpl<bool> &":$resultBatched)>,
  ];
}

// Shorthands for op definitions.
defvar Mlax_ElementwiseDerivative =
    DeclareOpInterfaceMethods<Mlax_DifferentiableOpInterface, ["applyPartial"]>;
defvar Mlax_Derivative =
    DeclareOpInterfaceMethods<Mlax_DifferentiableOpInterface, ["jvp", "vjp"]>;

// A derivative rule written for real values only (see MlaxInterfaces.h).
def Mlax_RealDerivativeOnly : NativeOpTrait<"RealDerivativeOnly"> {
  let cppNamespace = "::mlir::OpTrait::mlax";
}

defvar Mlax_ElementwiseBatching = Mlax_BatchableOpInterface;
defvar Mlax_Batching = DeclareOpInterfaceMethods<Mlax_BatchableOpInterface, ["batch"]>;
defvar Mlax_NamedAxis = DeclareOpInterfaceMethods<Mlax_NamedAxisOpInterface>;
defvar Mlax_SpmdBatching = DeclareOpInterfaceMethods<Mlax_SpmdBatchableOpInterface>;

#endif // MLAX_INTERFACES_TD
