//===- MlaxBuilder.h - the one builder of mlax ops and constants -*- C++ -*-===//
//
// Everything that builds mlax ops outside the tracer goes through
// `MlaxBuilder`: the derivative and batching rules, the folders'
// canonicalizations, and the declared partials of elementwise ops (the
// `partials` field of an op's ODS, generated into `applyPartial`). The
// constant helpers (`splatAttr`, `identityAttr`) are also what the lowering
// to StableHLO uses, so a constant of a given element type is made the same
// way in every layer.
//
//===----------------------------------------------------------------------===//

#ifndef MLAX_DIALECT_MLAX_IR_MLAXBUILDER_H
#define MLAX_DIALECT_MLAX_IR_MLAXBUILDER_H

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <utility>

namespace mlir::mlax {

/// The ranked tensor type of `v` (every mlax value has one).
inline RankedTensorType tensorOf(Value v) { return llvm::cast<RankedTensorType>(v.getType()); }

/// `value` everywhere in `type`: floats (NaN and infinities included),
/// complex numbers as `value + 0i` (NaN as NaN in both parts), integers
/// truncated towards zero, bools as `value != 0`.
DenseElementsAttr splatAttr(ShapedType type, double value);

/// The identity of a reduction as a scalar (`tensor<elem>`) constant: 0 for
/// Add, 1 for Mul, the lowest value (-inf where the format has it) for Max,
/// the highest for Min. Bools: false for Add (or) and Max, true for Mul (and)
/// and Min. Complex numbers: 0 or 1.
DenseElementsAttr identityAttr(WindowReduction kind, Type elem);

/// Builds mlax ops at one location. Null operands stand for zeros where the
/// arithmetic allows it (`add(null, x)` is `x`, `sub(x, null)` is `x`), which
/// is how derivative rules pass zero (co)tangents; helpers that would emit
/// an identity (a transpose by the identity permutation, a reshape or
/// broadcast to the same type, a convert to the same element type, a sum
/// over no axes) return their operand.
struct MlaxBuilder {
  OpBuilder &b;
  Location loc;

  MlaxBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}
  MlaxBuilder(OpBuilder &b, Operation *op) : b(b), loc(op->getLoc()) {}

  //--- constants -------------------------------------------------------===//
  /// `value` everywhere in tensor type `type` (see `splatAttr`).
  Value splat(Type type, double value);
  Value zeros(Type type) { return splat(type, 0.0); }
  /// A splat of `value` with `v`'s type.
  Value like(Value v, double value) { return splat(v.getType(), value); }
  /// A rank-0 constant of element type `elt`.
  Value scalar(Type elt, double value) { return splat(RankedTensorType::get({}, elt), value); }
  Value orZeros(Value v, Type type) { return v ? v : zeros(type); }

  /// Any mlax op with one result: `e.create<CosOp>(x)`.
  template <typename OpTy, typename... Args>
  Value create(Args &&...args) {
    return OpTy::create(b, loc, std::forward<Args>(args)...)->getResult(0);
  }

  //--- elementwise -----------------------------------------------------===//
  Value add(Value x, Value y);
  Value sub(Value x, Value y);
  Value mul(Value x, Value y);
  Value div(Value x, Value y);
  Value neg(Value x);
  Value sign(Value x);
  Value exp(Value x);
  /// Rounds towards zero: `sign(x) * floor(|x|)`.
  Value trunc(Value x);
  /// `x * value`.
  Value scale(Value x, double value) { return mul(x, like(x, value)); }
  Value compare(ComparisonDirection direction, Value x, Value y);
  Value eq(Value x, Value y) { return compare(ComparisonDirection::EQ, x, y); }
  Value logicalAnd(Value x, Value y);
  /// `pred ? onTrue : onFalse`, elementwise.
  Value select(Value pred, Value onTrue, Value onFalse);
  /// jax.lax's `_balanced_eq`: 1 where `mine` is `result`, 1/2 where `other`
  /// is too (a tie), 0 elsewhere; the share of max/min's derivative that
  /// goes to `mine`.
  Value balancedEq(Value mine, Value other, Value result);
  Value convert(Value x, Type elementType);
  /// The complex conjugate; `x` itself when it is real.
  Value conj(Value x);
  /// The real part (of the real element type); `x` itself when it is real.
  Value real(Value x);
  /// `x` with its imaginary part dropped, in `x`'s own type.
  Value realPart(Value x) { return convert(real(x), tensorOf(x).getElementType()); }

  //--- shapes and reductions -------------------------------------------===//
  Value reduceSum(Value x, ArrayRef<int64_t> axes);
  /// Sums `x` over every axis down to `type` (the inverse of broadcasting a
  /// scalar); unchanged if it has that type.
  Value sumTo(Value x, Type type);
  /// `broadcast_in_dim` to `resultType` (`dims`: where `x`'s dimensions go;
  /// none for a scalar).
  Value broadcast(Value x, Type resultType, ArrayRef<int64_t> dims = {});
  Value reshape(Value x, Type resultType);
  Value transpose(Value x, ArrayRef<int64_t> perm);
  /// `x` with dimension `from` moved to position `to` (the others in order).
  Value moveAxis(Value x, int64_t from, int64_t to);

  //--- matrices: `[..., m, n]` tensors ----------------------------------===//
  /// The number of batch dimensions in front of the matrix dimensions.
  static int64_t batchRank(Value x) { return tensorOf(x).getRank() - 2; }
  /// Swaps the two trailing dimensions.
  Value mT(Value x);
  /// The conjugate transpose (`mT` for real matrices).
  Value mH(Value x) { return conj(mT(x)); }
  /// `x @ y` over equal batch dimensions.
  Value matmul(Value x, Value y);
  /// A bool `[..., m, n]` tensor shaped as `like`, true where `keep(i, j)`.
  template <typename F>
  Value mask(RankedTensorType like, F keep) {
    int64_t n = like.getRank() - 2;
    int64_t rows = like.getDimSize(n), cols = like.getDimSize(n + 1);
    SmallVector<bool> bits;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        bits.push_back(keep(i, j));
    return broadcastMatrixMask(like, bits);
  }
  /// `x` where `keep(i, j)`, zero elsewhere.
  template <typename F>
  Value where(Value x, F keep) {
    auto t = tensorOf(x);
    return SelectNOp::create(b, loc, mask(t, keep), ValueRange{zeros(t), x});
  }
  /// The lower triangle `j <= i + k` of `x`, or the upper `j >= i + k`.
  Value tril(Value x, int64_t k = 0) {
    return where(x, [k](int64_t i, int64_t j) { return j <= i + k; });
  }
  Value triu(Value x, int64_t k = 0) {
    return where(x, [k](int64_t i, int64_t j) { return j >= i + k; });
  }
  /// An identity-like `[..., m, n]` matrix.
  Value eye(RankedTensorType like);
  /// The diagonal `[..., n]` of `[..., n, n]`.
  Value diag(Value x);
  /// `v` `[..., n]` repeated down the rows (`r[i, j] = v[j]`) or, with
  /// `alongRows`, across the columns (`r[i, j] = v[i]`) of `[..., m, n]`.
  Value spread(Value v, RankedTensorType like, bool alongRows);
  /// The `[..., n, n]` matrix with `v` on its diagonal.
  Value diagEmbed(Value v);
  /// Rows `[r0, r1)` and columns `[c0, c1)` of every matrix.
  Value slice(Value x, int64_t r0, int64_t r1, int64_t c0, int64_t c1);
  Value concatCols(Value x, Value y);
  Value solve(Value a, Value rhs, bool left, bool lower, bool unitDiagonal, TransposeKind kind);

private:
  /// `bits` (row-major `[m, n]`) as a constant, broadcast to `like`'s batch.
  Value broadcastMatrixMask(RankedTensorType like, ArrayRef<bool> bits);
};

} // namespace mlir::mlax

#endif // MLAX_DIALECT_MLAX_IR_MLAXBUILDER_H
