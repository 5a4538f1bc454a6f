//===- StablehloBuilder.h - the one place StableHLO is spelled --*- C++ -*-===//
//
// mlax does not link StableHLO. Its ops are created by name and its
// attributes parsed from their textual syntax, in a context that allows
// unregistered dialects; jaxlib re-parses and verifies the printed text.
// Lowerings go through this helper so none of them builds StableHLO by hand.
//
//===----------------------------------------------------------------------===//
#ifndef MLAX_PASSES_STABLEHLOBUILDER_H
#define MLAX_PASSES_STABLEHLOBUILDER_H

#include "mlax/Dialect/Mlax/IR/MlaxBuilder.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::mlax {

// Constants are made with the dialect's `splatAttr` and `identityAttr`
// (MlaxBuilder.h), as the derivative rules make them.

class StablehloBuilder {
public:
  StablehloBuilder(OpBuilder &builder, Location loc)
      : b(builder), loc(loc) {}

  /// Creates `stablehlo.<name>` (name given without the prefix or with it).
  Operation *create(StringRef name, ValueRange operands, TypeRange results,
                    ArrayRef<NamedAttribute> attrs = {}, unsigned regions = 0);
  /// Same, for the common single-result case.
  Value op(StringRef name, ValueRange operands, Type result,
           ArrayRef<NamedAttribute> attrs = {}) {
    return create(name, operands, result, attrs)->getResult(0);
  }

  /// Parses a StableHLO attribute (e.g. `#stablehlo<comparison_direction GT>`).
  /// Returns null (after emitting a diagnostic) if the text does not parse.
  Attribute attr(StringRef text);
  /// `#stablehlo.result_accuracy<...>` for an op's `#mlax.accuracy`, as
  /// StableHLO prints it (the tolerances that are 0 left out).
  Attribute resultAccuracy(ResultAccuracyAttr accuracy);
  NamedAttribute named(StringRef name, Attribute value) {
    return b.getNamedAttr(name, value);
  }
  NamedAttribute i64Array(StringRef name, ArrayRef<int64_t> values) {
    return b.getNamedAttr(name, b.getDenseI64ArrayAttr(values));
  }

  Value constant(ElementsAttr value);
  /// `direction` is EQ/NE/LT/LE/GT/GE; the comparison type follows the
  /// element type (FLOAT, SIGNED or UNSIGNED).
  Value compare(StringRef direction, Value lhs, Value rhs);
  Value select(Value pred, Value onTrue, Value onFalse);
  /// `stablehlo.reduce` over `dims` whose body applies `bodyOp` (e.g.
  /// "stablehlo.add") to scalars, starting from `init` (a scalar tensor).
  Value reduce(Value operand, ElementsAttr init, ArrayRef<int64_t> dims,
               StringRef bodyOp, RankedTensorType resultType);

  OpBuilder &builder() { return b; }

private:
  OpBuilder &b;
  Location loc;
};

} // namespace mlir::mlax

#endif // MLAX_PASSES_STABLEHLOBUILDER_H
