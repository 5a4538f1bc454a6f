//===- MlaxRandomOps.cpp - XLA's random number generators -----------------===//
//
// The verifier and batching rule of mlax.rng_bit_generator
// (MlaxRandomOps.td). Its results are unsigned integers, so it has no
// derivative rule (mlax-autodiff never asks for one), and no folder: the
// algorithms are XLA's. Then mlax.rng_uniform's verifier (it has no rules,
// as in JAX).
//
// The batching rule is jax's (jax/_src/lax/control_flow/loops.py): a batch
// of keys does not give one independent stream per key. The first key alone
// draws bits of shape (batch, *shape), and the batch of new keys is the old
// one with its first row replaced by the first key's successor. jax does
// this because the op cannot be vectorized over keys on every backend; mlax
// mirrors it so vmapped rbg programs give jax's bits.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "MlaxRuleUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::mlax;
using namespace mlir::mlax::detail;

namespace {

bool isUnsigned(Type t, unsigned width) {
  return t.isUnsignedInteger() && t.getIntOrFloatBitWidth() == width;
}

/// tensor<4xui32> (jax's form) or tensor<2xui64> (XLA's).
bool isRngKey(RankedTensorType t) {
  if (t.getRank() != 1)
    return false;
  Type e = t.getElementType();
  return (t.getDimSize(0) == 4 && isUnsigned(e, 32)) ||
         (t.getDimSize(0) == 2 && isUnsigned(e, 64));
}

} // namespace

LogicalResult RngBitGeneratorOp::verify() {
  auto key = tensorOf(getKey());
  if (!isRngKey(key))
    return emitOpError("key must be a uint32 array of shape (4,) (or uint64 of shape (2,)), got ")
           << key;
  auto bits = tensorOf(getBits());
  Type e = bits.getElementType();
  if (!(isUnsigned(e, 8) || isUnsigned(e, 16) || isUnsigned(e, 32) || isUnsigned(e, 64)))
    return emitOpError("bits must be ui8, ui16, ui32 or ui64, got ") << e;
  return success();
}

LogicalResult RngBitGeneratorOp::batch(OpBuilder &b, ValueRange operands,
                                       ArrayRef<bool> batched, int64_t batchSize,
                                       SmallVectorImpl<Value> &results) {
  Location loc = getLoc();
  Value keys = ensureBatched(b, loc, operands[0], batched[0], batchSize);
  auto keyType = tensorOf(getKey());
  int64_t n = keyType.getDimSize(0);
  // The first key, and the rest of the batch (kept as they are).
  Value first = SliceOp::create(b, loc, keys, ArrayRef<int64_t>{0, 0},
                                ArrayRef<int64_t>{1, n}, ArrayRef<int64_t>{1, 1});
  Value key = ReshapeOp::create(b, loc, keyType, first);
  auto bitsType = vec::batchedType(getBits().getType(), batchSize);
  auto gen = RngBitGeneratorOp::create(b, loc, keyType, bitsType, getAlgorithm(), key);
  auto rowType = RankedTensorType::get({1, n}, keyType.getElementType());
  Value newFirst = ReshapeOp::create(b, loc, rowType, gen.getNewKey());
  Value newKeys = newFirst;
  if (batchSize > 1) {
    Value rest = SliceOp::create(b, loc, keys, ArrayRef<int64_t>{1, 0},
                                 ArrayRef<int64_t>{batchSize, n}, ArrayRef<int64_t>{1, 1});
    newKeys = ConcatenateOp::create(b, loc, ValueRange{newFirst, rest}, 0);
  }
  results.push_back(newKeys);
  results.push_back(gen.getBits());
  return success();
}

/// The element types XLA's RngUniform expands (xla/service/rng_expander.cc):
/// 32- and 64-bit integers and floats, f16 and bf16. Others abort XLA's
/// compiler (a failed CHECK), so the verifier refuses them.
static bool isRngUniformElement(Type e) {
  if (e.isF16() || e.isBF16() || e.isF32() || e.isF64())
    return true;
  auto i = llvm::dyn_cast<IntegerType>(e);
  return i && !i.isSigned() && (i.getWidth() == 32 || i.getWidth() == 64);
}

LogicalResult RngUniformOp::verify() {
  Type e = tensorOf(getA()).getElementType();
  if (!isRngUniformElement(e))
    return emitOpError("operands must be f16, bf16, f32, f64, i32, i64, ui32 or ui64 scalars "
                       "(the types XLA's RngUniform supports), got ")
           << e;
  Type r = tensorOf(getResult()).getElementType();
  if (r != e)
    return emitOpError("result element type ") << r << " must be the operands' " << e;
  return success();
}
