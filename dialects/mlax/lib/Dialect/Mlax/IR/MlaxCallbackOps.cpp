//===- MlaxCallbackOps.cpp - host callbacks -------------------------------===//
//
// The verifier, derivative rules and batching rules of `mlax.host_callback`,
// following jax/_src/debugging.py (debug_callback) and jax/_src/callback.py
// (pure_callback, io_callback).
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "MlaxRuleUtils.h"

using namespace mlir;
using namespace mlir::mlax;
using namespace mlir::mlax::detail;

LogicalResult HostCallbackOp::verify() {
  if (getCallbackAttr().getInt() < 0)
    return emitOpError() << "callback index " << getCallbackAttr().getInt() << " is negative";
  StringRef kind = getKind();
  if (kind != "debug" && kind != "pure" && kind != "io")
    return emitOpError() << "kind must be \"debug\", \"pure\" or \"io\", got \"" << kind
                         << "\"";
  if (kind == "debug" && getNumResults() != 0)
    return emitOpError() << "of kind \"debug\" has no results, got " << getNumResults();
  if (std::optional<StringRef> method = getVmapMethod()) {
    if (kind != "pure")
      return emitOpError() << "vmap_method is only for kind \"pure\"";
    if (*method != "sequential" && *method != "sequential_unrolled" &&
        *method != "expand_dims" && *method != "broadcast_all")
      return emitOpError() << "vmap_method must be one of \"sequential\", "
                              "\"sequential_unrolled\", \"expand_dims\", \"broadcast_all\"; "
                              "got \""
                           << *method << "\"";
  }
  if (getOrdered() && kind == "pure")
    return emitOpError() << "of kind \"pure\" cannot be ordered";
  return success();
}

//======================================================================//
// Derivative rules
//======================================================================//

// debug: the callback runs on the primals (the op stays in the primal
// computation the pass copies) and has no tangents or cotangents. pure and
// io: an error as soon as a nonzero tangent reaches the op, with JAX's words.
static LogicalResult noDerivative(HostCallbackOp op, ArrayRef<Value> ds) {
  if (op.getKind() == "debug" || llvm::all_of(ds, [](Value v) { return !v; }))
    return success();
  if (op.getKind() == "pure")
    return op.emitOpError(
        "Pure callbacks do not support JVP. Please use `jax.custom_jvp` to use "
        "callbacks while taking gradients.");
  return op.emitOpError("IO callbacks do not support JVP.");
}

LogicalResult HostCallbackOp::jvp(OpBuilder &, ArrayRef<Value> tangents,
                                  SmallVectorImpl<Value> &resultTangents) {
  if (failed(noDerivative(*this, tangents)))
    return failure();
  resultTangents.append(getNumResults(), Value());
  return success();
}

LogicalResult HostCallbackOp::vjp(OpBuilder &, ArrayRef<Value> cotangents,
                                  SmallVectorImpl<Value> &operandCotangents) {
  if (failed(noDerivative(*this, cotangents)))
    return failure();
  operandCotangents.append(getNumOperands(), Value());
  return success();
}

//======================================================================//
// Batching rule
//======================================================================//

LogicalResult HostCallbackOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool> batched,
                                    int64_t batchSize, SmallVectorImpl<Value> &results) {
  Location loc = getLoc();
  std::optional<StringRef> method = getVmapMethod();
  if (getKind() == "pure" && !method)
    return emitOpError(
        "vmap is only supported for the pure_callback primitive when vmap_method is one "
        "of 'sequential', 'sequential_unrolled', 'expand_dims', 'broadcast_all', or "
        "'legacy_vectorized'. Got vmap_method=None.");
  if (getKind() == "io" && getOrdered())
    return emitOpError("Cannot `vmap` ordered IO callback.");

  if (method && (*method == "expand_dims" || *method == "broadcast_all")) {
    // One call on the whole batch: unbatched operands get a leading
    // dimension of size 1 (expand_dims) or batchSize (broadcast_all).
    SmallVector<Value> args;
    for (auto [v, isBatched] : llvm::zip(operands, batched)) {
      if (isBatched) {
        args.push_back(v);
      } else if (*method == "broadcast_all") {
        args.push_back(vec::broadcastToBatch(b, loc, v, batchSize));
      } else {
        args.push_back(ReshapeOp::create(b, loc, vec::batchedType(v.getType(), 1), v));
      }
    }
    Operation *clone = cloneBatched(b, getOperation(), args, batchSize);
    results.append(clone->getResults().begin(), clone->getResults().end());
    return success();
  }

  // pure "sequential" and io: a loop over the batch (JAX's lax.map), an
  // mlax.scan whose body makes one call on one element; unbatched operands
  // are its loop-invariant consts.
  if (getNumResults() > 0 && (getKind() == "io" || (method && *method == "sequential"))) {
    SmallVector<Value> xs, consts;
    for (auto [v, isBatched] : llvm::zip(operands, batched))
      (isBatched ? xs : consts).push_back(v);
    SmallVector<Type> resultTypes;
    for (Type t : getResultTypes())
      resultTypes.push_back(vec::batchedType(t, batchSize));
    auto scan = ScanOp::create(b, loc, resultTypes, ValueRange(), xs, consts,
                               (uint64_t)batchSize);
    Block *body = b.createBlock(&scan.getBody());
    IRMapping map;
    for (auto [old, isBatched] : llvm::zip(getOperands(), batched))
      if (isBatched)
        map.map(old, body->addArgument(old.getType(), loc));
    for (auto [old, isBatched] : llvm::zip(getOperands(), batched))
      if (!isBatched)
        map.map(old, body->addArgument(old.getType(), loc));
    Operation *clone = b.clone(*getOperation(), map);
    YieldOp::create(b, loc, clone->getResults());
    b.setInsertionPointAfter(scan);
    results.append(scan.getResults().begin(), scan.getResults().end());
    return success();
  }

  // Sequential (debug, pure "sequential_unrolled", io without results): one call per batch
  // element, unrolled as in JAX's debug_batching_rule, results stacked.
  SmallVector<SmallVector<Value>> perElement(getNumResults());
  for (int64_t i = 0; i < batchSize; ++i) {
    IRMapping map;
    for (auto [old, v, isBatched] : llvm::zip(getOperands(), operands, batched)) {
      Value arg = v;
      if (isBatched) {
        auto t = tensorOf(v);
        SmallVector<int64_t> start(t.getRank(), 0), limit(t.getShape()), strides(t.getRank(), 1);
        start[0] = i;
        limit[0] = i + 1;
        Value row = SliceOp::create(b, loc, v, start, limit, strides);
        arg = ReshapeOp::create(b, loc, old.getType(), row);
      }
      map.map(old, arg);
    }
    Operation *clone = b.clone(*getOperation(), map);
    for (auto [j, r] : llvm::enumerate(clone->getResults()))
      perElement[j].push_back(
          ReshapeOp::create(b, loc, vec::batchedType(r.getType(), 1), r));
  }
  const uint64_t batchDim = 0;
  for (auto &rows : perElement) {
    if (rows.size() == 1)
      results.push_back(rows.front());
    else
      results.push_back(ConcatenateOp::create(b, loc, ValueRange(rows), batchDim).getResult());
  }
  return success();
}
