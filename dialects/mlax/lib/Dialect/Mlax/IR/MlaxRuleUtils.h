//===- MlaxRuleUtils.h - helpers shared by the op families -----*- C++ -*-===//
//
// Internal to lib/Dialect/Mlax/IR: the helpers that more than one family's
// verifiers, folders, derivative rules or batching rules use (shape checks,
// batching helpers, constant evaluation for folders); the rules build ops
// with `MlaxBuilder` (mlax/Dialect/Mlax/IR/MlaxBuilder.h). A helper one
// family uses stays in that family's file.
//
//===----------------------------------------------------------------------===//

#ifndef MLAX_LIB_DIALECT_MLAX_IR_MLAXRULEUTILS_H
#define MLAX_LIB_DIALECT_MLAX_IR_MLAXRULEUTILS_H

#include "mlax/Dialect/Mlax/IR/MlaxBuilder.h"
#include "mlax/Dialect/Mlax/IR/MlaxOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <complex>
#include <optional>

namespace mlir::mlax::detail {

//======================================================================//
// Verifiers and shape rules
//======================================================================//

/// Formats a shape as `[2, 3]` for messages.
inline std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(shape, os);
  os << "]";
  return s;
}

/// Custom assembly formats infer result types while parsing, before the ODS
/// type constraints run; inference must not look inside operands of the
/// wrong kind (the constraint reports them afterwards, with its message).
inline bool allRanked(ValueRange values) {
  return llvm::all_of(values, [](Value v) {
    return llvm::isa<RankedTensorType>(v.getType());
  });
}

inline LogicalResult notTensors(std::optional<Location> loc, StringRef opName) {
  return emitOptionalError(loc, "'", opName,
                           "' op operands must be statically shaped tensors");
}

/// Checks that `dims` are distinct and within [0, rank).
inline LogicalResult checkDims(std::optional<Location> loc, StringRef opName,
                        StringRef what, ArrayRef<int64_t> dims, int64_t rank) {
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t d : dims) {
    if (d < 0 || d >= rank)
      return emitOptionalError(loc, "'", opName, "' op ", what, " ", d,
                               " is out of range for rank ", rank);
    if (!seen.insert(d).second)
      return emitOptionalError(loc, "'", opName, "' op ", what, " ", d,
                               " appears twice (duplicate entries in ",
                               shapeStr(dims), ")");
  }
  return success();
}

//======================================================================//
// Derivative rules
//
// Each op's `DifferentiableOpInterface` implementation lives in its family's
// file (grep the op's name): elementwise ops give `applyPartial`, the others
// `jvp` and `vjp`. The rules follow jax.lax's JVP and transpose rules,
// written directly as reverse-mode rules. A null Value is a zero
// (co)tangent.
//======================================================================//

/// The dimensions of a rank-`rank` tensor that are not in `axes`.
inline SmallVector<int64_t> keptDims(int64_t rank, ArrayRef<int64_t> axes) {
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(axes, d))
      kept.push_back(d);
  return kept;
}

inline SmallVector<int64_t> invertPermutation(ArrayRef<int64_t> perm) {
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = i;
  return inverse;
}

//======================================================================//
// Batching rules
//
// Each op's `BatchableOpInterface` implementation lives in its family's file.
// A batched value carries the batch dimension in front. Elementwise ops use
// the default rule; ops whose batched form is another op emit it directly.
// Nothing loops over the batch.
//======================================================================//

/// `dims` shifted past the batch dimension.
inline SmallVector<int64_t> shifted(ArrayRef<int64_t> dims) {
  SmallVector<int64_t> out;
  for (int64_t d : dims)
    out.push_back(d + 1);
  return out;
}

/// [0] followed by `dims` shifted past the batch dimension.
inline SmallVector<int64_t> withBatchFirst(ArrayRef<int64_t> dims) {
  SmallVector<int64_t> out{0};
  out.append(shifted(dims));
  return out;
}

inline Value ensureBatched(OpBuilder &b, Location loc, Value v, bool batched, int64_t batchSize) {
  return batched ? v : vec::broadcastToBatch(b, loc, v, batchSize);
}

/// Clones `op` with `operands` and every result type batched.
inline Operation *cloneBatched(OpBuilder &b, Operation *op, ValueRange operands, int64_t batchSize) {
  IRMapping map;
  map.map(op->getOperands(), operands);
  Operation *clone = b.clone(*op, map);
  for (Value r : clone->getResults())
    r.setType(vec::batchedType(r.getType(), batchSize));
  return clone;
}

//======================================================================//
// Folders
//
// `fold()` hooks: constant folding and exact algebraic identities. They run
// inside `canonicalize` and `mlax-fold-constants`.
//
// Rules every folder here keeps:
//  * Float semantics are IEEE: no `x * 0 -> 0` or `x + 0.0 -> x` for floats
//    (NaN, infinities and -0.0 would change); NaN-producing folds produce NaN.
//  * Integer division or remainder by zero, and INT_MIN / -1, fold to what
//    XLA computes at run time (x / 0 = -1, all bits set; x % 0 = x;
//    INT_MIN / -1 = INT_MIN; INT_MIN % -1 = 0; checked by
//    test/py/test_folding.py against unfolded programs). Leaving them
//    unfolded is not an option: XLA's own constant folding crashes the
//    process (SIGFPE) on them.
//  * A folder never materialises a non-splat constant of more than
//    `kMaxFoldedElements` elements (splats are always cheap).
//  * Element types we cannot evaluate (complex, 8-bit floats, ...) make a
//    folder decline; it never asserts on odd input.
//======================================================================//

/// The largest non-splat constant a folder may create, in elements.
constexpr int64_t kMaxFoldedElements = 1 << 16;

using llvm::APFloat;
using llvm::APInt;
using llvm::APSInt;

/// Float types whose arithmetic APFloat (and, via double, libm) evaluates.
inline bool isFoldableFloat(Type t) {
  return llvm::isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(t);
}

/// Integers up to 64 bits: signless ones are signed, `ui*` and `i1` (bool)
/// unsigned.
inline bool isFoldableInt(Type t) {
  auto it = llvm::dyn_cast<IntegerType>(t);
  return it && it.getWidth() <= 64;
}

inline bool isUnsignedInt(Type t) {
  auto it = llvm::cast<IntegerType>(t);
  return it.isUnsigned() || it.getWidth() == 1;
}

/// A constant operand as dense elements (resource-backed constants decline).
inline DenseElementsAttr dense(Attribute a) {
  return llvm::dyn_cast_or_null<DenseElementsAttr>(a);
}

/// Whether a result of `type` may be materialised from operands that are all
/// splats (`allSplat`) or not.
inline bool mayMaterialise(ShapedType type, bool allSplat) {
  return allSplat || type.getNumElements() <= kMaxFoldedElements;
}

/// The value of a splat constant operand, if it is one.
inline std::optional<APFloat> splatFloat(Attribute a) {
  auto d = dense(a);
  if (!d || !d.isSplat() || !isFoldableFloat(d.getElementType()))
    return std::nullopt;
  return d.getSplatValue<APFloat>();
}

inline std::optional<APInt> splatInt(Attribute a) {
  auto d = dense(a);
  if (!d || !d.isSplat() || !isFoldableInt(d.getElementType()))
    return std::nullopt;
  return d.getSplatValue<APInt>();
}

/// Evaluates `f` in double precision and rounds back to `x`'s format.
inline APFloat viaDouble(const APFloat &x, double (*f)(double)) {
  bool loses;
  APFloat d = x;
  d.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &loses);
  APFloat r(f(d.convertToDouble()));
  r.convert(x.getSemantics(), APFloat::rmNearestTiesToEven, &loses);
  return r;
}

inline APFloat viaDouble2(const APFloat &x, const APFloat &y,
                   double (*f)(double, double)) {
  bool loses;
  APFloat dx = x, dy = y;
  dx.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &loses);
  dy.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &loses);
  APFloat r(f(dx.convertToDouble(), dy.convertToDouble()));
  r.convert(x.getSemantics(), APFloat::rmNearestTiesToEven, &loses);
  return r;
}

//===----------------------------------------------------------------------===//
// Elementwise evaluation over constants
//===----------------------------------------------------------------------===//

/// Maps each element of the dense constants `ins` (all of `inType`'s element
/// kind) through `fn`; `fn` returns nullopt to decline. `Elem` is APFloat or
/// APInt; `Out` is what the result holds (APFloat, APInt).
template <typename Elem, typename Out, typename Fn>
Attribute mapElements(ArrayRef<DenseElementsAttr> ins, ShapedType resultType,
                      Fn fn) {
  bool allSplat = llvm::all_of(ins, [](DenseElementsAttr d) { return d.isSplat(); });
  if (!mayMaterialise(resultType, allSplat))
    return {};
  int64_t n = allSplat ? 1 : resultType.getNumElements();
  SmallVector<SmallVector<Elem>> values;
  for (DenseElementsAttr d : ins) {
    if (d.isSplat())
      values.push_back(SmallVector<Elem>(n, d.getSplatValue<Elem>()));
    else
      values.push_back(llvm::to_vector(d.getValues<Elem>()));
    if ((int64_t)values.back().size() != n)
      return {};
  }
  SmallVector<Out> out;
  out.reserve(n);
  SmallVector<Elem> args;
  for (int64_t i = 0; i < n; ++i) {
    args.clear();
    for (auto &v : values)
      args.push_back(v[i]);
    std::optional<Out> r = fn(ArrayRef<Elem>(args));
    if (!r)
      return {};
    out.push_back(*r);
  }
  if (allSplat)
    return DenseElementsAttr::get(resultType, out.front());
  return DenseElementsAttr::get(resultType, ArrayRef<Out>(out));
}

/// The operands as dense constants of one foldable element kind, or empty.
inline SmallVector<DenseElementsAttr> denseOperands(ArrayRef<Attribute> operands,
                                             bool (*kind)(Type)) {
  SmallVector<DenseElementsAttr> out;
  for (Attribute a : operands) {
    auto d = dense(a);
    if (!d || !kind(d.getElementType()))
      return {};
    out.push_back(d);
  }
  return out;
}

using FloatFn1 = std::optional<APFloat> (*)(const APFloat &);
using IntFn1 = std::optional<APInt> (*)(const APInt &, bool isUnsigned);

inline Attribute foldUnary(Attribute operand, Type resultType, FloatFn1 floatFn,
                    IntFn1 intFn) {
  auto type = llvm::dyn_cast<ShapedType>(resultType);
  if (!type)
    return {};
  if (floatFn) {
    auto ins = denseOperands({operand}, isFoldableFloat);
    if (!ins.empty())
      return mapElements<APFloat, APFloat>(
          ins, type, [&](ArrayRef<APFloat> a) { return floatFn(a[0]); });
  }
  if (intFn) {
    auto ins = denseOperands({operand}, isFoldableInt);
    if (!ins.empty()) {
      bool isUnsigned = isUnsignedInt(ins[0].getElementType());
      return mapElements<APInt, APInt>(
          ins, type, [&](ArrayRef<APInt> a) { return intFn(a[0], isUnsigned); });
    }
  }
  return {};
}

using FloatFn2 = std::optional<APFloat> (*)(const APFloat &, const APFloat &);
using IntFn2 = std::optional<APInt> (*)(const APInt &, const APInt &,
                                        bool isUnsigned);

inline Attribute foldBinary(Attribute lhs, Attribute rhs, Type resultType,
                     FloatFn2 floatFn, IntFn2 intFn) {
  auto type = llvm::dyn_cast<ShapedType>(resultType);
  if (!type)
    return {};
  if (floatFn) {
    auto ins = denseOperands({lhs, rhs}, isFoldableFloat);
    if (!ins.empty())
      return mapElements<APFloat, APFloat>(
          ins, type, [&](ArrayRef<APFloat> a) { return floatFn(a[0], a[1]); });
  }
  if (intFn) {
    auto ins = denseOperands({lhs, rhs}, isFoldableInt);
    if (!ins.empty()) {
      bool isUnsigned = isUnsignedInt(ins[0].getElementType());
      return mapElements<APInt, APInt>(ins, type, [&](ArrayRef<APInt> a) {
        return intFn(a[0], a[1], isUnsigned);
      });
    }
  }
  return {};
}

inline APFloat rounded(APFloat x, APFloat::roundingMode mode) {
  x.roundToIntegral(mode);
  return x;
}

/// C fmod: the remainder with the sign of the dividend.
inline APFloat fmod(APFloat x, const APFloat &y) {
  x.mod(y);
  return x;
}

inline bool isAllOnes(const std::optional<APInt> &v) { return v && v->isAllOnes(); }
inline bool isZero(const std::optional<APInt> &v) { return v && v->isZero(); }
inline bool isOne(const std::optional<APInt> &v) { return v && v->isOne(); }

/// A splat of `value` with `type`'s shape (used for identities like x - x).
inline Attribute zerosLike(Type type) {
  auto shaped = llvm::dyn_cast<ShapedType>(type);
  if (!shaped || !isFoldableInt(shaped.getElementType()))
    return {};
  return DenseElementsAttr::get(
      shaped, APInt::getZero(shaped.getElementType().getIntOrFloatBitWidth()));
}


inline SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = (int64_t)shape.size() - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

} // namespace mlir::mlax::detail

#endif // MLAX_LIB_DIALECT_MLAX_IR_MLAXRULEUTILS_H
