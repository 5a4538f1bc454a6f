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

// Shared by host_callback and ffi_call: the batching rules of JAX's
// pure_callback / ffi_call by vmap_method (jax/_src/callback.py,
// jax/_src/ffi.py).

// One call on the whole batch: batched operands as they are, unbatched ones
// given a leading dimension of size 1 ("expand_dims"), broadcast to the
// batch ("broadcast_all") or left as they are ("legacy_vectorized").
static Operation *batchVectorized(Operation *op, OpBuilder &b, ValueRange operands,
                                  ArrayRef<bool> batched, int64_t batchSize,
                                  StringRef method) {
  Location loc = op->getLoc();
  SmallVector<Value> args;
  for (auto [v, isBatched] : llvm::zip(operands, batched)) {
    if (isBatched || method == "legacy_vectorized")
      args.push_back(v);
    else if (method == "broadcast_all")
      args.push_back(vec::broadcastToBatch(b, loc, v, batchSize));
    else
      args.push_back(ReshapeOp::create(b, loc, vec::batchedType(v.getType(), 1), v));
  }
  return cloneBatched(b, op, args, batchSize);
}

// A loop over the batch (JAX's lax.map): an mlax.scan whose body makes one
// call on one element; unbatched operands are its loop-invariant consts.
static void batchAsScan(Operation *op, OpBuilder &b, ValueRange operands,
                        ArrayRef<bool> batched, int64_t batchSize,
                        SmallVectorImpl<Value> &results) {
  Location loc = op->getLoc();
  SmallVector<Value> xs, consts;
  for (auto [v, isBatched] : llvm::zip(operands, batched))
    (isBatched ? xs : consts).push_back(v);
  SmallVector<Type> resultTypes;
  for (Type t : op->getResultTypes())
    resultTypes.push_back(vec::batchedType(t, batchSize));
  auto scan = ScanOp::create(b, loc, resultTypes, ValueRange(), xs, consts,
                             (uint64_t)batchSize);
  Block *body = b.createBlock(&scan.getBody());
  IRMapping map;
  for (auto [old, isBatched] : llvm::zip(op->getOperands(), batched))
    if (isBatched)
      map.map(old, body->addArgument(old.getType(), loc));
  for (auto [old, isBatched] : llvm::zip(op->getOperands(), batched))
    if (!isBatched)
      map.map(old, body->addArgument(old.getType(), loc));
  Operation *clone = b.clone(*op, map);
  YieldOp::create(b, loc, clone->getResults());
  b.setInsertionPointAfter(scan);
  results.append(scan.getResults().begin(), scan.getResults().end());
}

// One call per batch element, unrolled in element order (JAX's
// debug_batching_rule), results stacked.
static void batchUnrolled(Operation *op, OpBuilder &b, ValueRange operands,
                          ArrayRef<bool> batched, int64_t batchSize,
                          SmallVectorImpl<Value> &results) {
  Location loc = op->getLoc();
  SmallVector<SmallVector<Value>> perElement(op->getNumResults());
  for (int64_t i = 0; i < batchSize; ++i) {
    IRMapping map;
    for (auto [old, v, isBatched] : llvm::zip(op->getOperands(), operands, batched)) {
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
    Operation *clone = b.clone(*op, map);
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
}

LogicalResult HostCallbackOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool> batched,
                                    int64_t batchSize, SmallVectorImpl<Value> &results) {
  std::optional<StringRef> method = getVmapMethod();
  if (getKind() == "pure" && !method)
    return emitOpError(
        "vmap is only supported for the pure_callback primitive when vmap_method is one "
        "of 'sequential', 'sequential_unrolled', 'expand_dims', 'broadcast_all', or "
        "'legacy_vectorized'. Got vmap_method=None.");
  if (getKind() == "io" && getOrdered())
    return emitOpError("Cannot `vmap` ordered IO callback.");

  if (method && (*method == "expand_dims" || *method == "broadcast_all")) {
    Operation *clone = batchVectorized(*this, b, operands, batched, batchSize, *method);
    results.append(clone->getResults().begin(), clone->getResults().end());
    return success();
  }
  // pure "sequential" and io with results: a loop over the batch; debug,
  // pure "sequential_unrolled" and io without results: unrolled calls.
  if (getNumResults() > 0 && (getKind() == "io" || (method && *method == "sequential")))
    batchAsScan(*this, b, operands, batched, batchSize, results);
  else
    batchUnrolled(*this, b, operands, batched, batchSize, results);
  return success();
}

//======================================================================//
// mlax.ffi_call (jax/_src/ffi.py)
//======================================================================//

static bool isVmapMethod(StringRef m) {
  return m == "sequential" || m == "sequential_unrolled" || m == "expand_dims" ||
         m == "broadcast_all" || m == "legacy_vectorized";
}

static SmallVector<int64_t> ffiLayout(ArrayAttr layouts, unsigned i, Type type) {
  if (layouts)
    return SmallVector<int64_t>(cast<DenseI64ArrayAttr>(layouts[i]).asArrayRef());
  SmallVector<int64_t> order;
  for (int64_t d = cast<RankedTensorType>(type).getRank() - 1; d >= 0; --d)
    order.push_back(d);
  return order;
}

SmallVector<int64_t> FfiCallOp::getOperandLayout(unsigned i) {
  return ffiLayout(getOperandLayoutsAttr(), i, getOperand(i).getType());
}

SmallVector<int64_t> FfiCallOp::getResultLayout(unsigned i) {
  return ffiLayout(getResultLayoutsAttr(), i, getResult(i).getType());
}

static LogicalResult verifyLayouts(Operation *op, ArrayAttr layouts, TypeRange types,
                                   StringRef what) {
  if (!layouts)
    return success();
  if (layouts.size() != types.size())
    return op->emitOpError() << "has " << layouts.size() << " " << what << "_layouts for "
                             << types.size() << " " << what << "s";
  for (auto [i, attr, type] : llvm::enumerate(layouts, types)) {
    auto layout = dyn_cast<DenseI64ArrayAttr>(attr);
    int64_t rank = cast<RankedTensorType>(type).getRank();
    if (!layout)
      return op->emitOpError() << what << "_layouts[" << i << "] is not an array<i64>";
    SmallVector<bool> seen(rank, false);
    bool ok = (int64_t)layout.size() == rank;
    for (int64_t d : layout.asArrayRef()) {
      ok = ok && d >= 0 && d < rank && !seen[d];
      if (ok)
        seen[d] = true;
    }
    if (!ok)
      return op->emitOpError() << what << "_layouts[" << i << "] = " << layout
                               << " is not a permutation of the " << rank
                               << " dimensions of " << type;
  }
  return success();
}

LogicalResult FfiCallOp::verify() {
  if (getTargetName().empty())
    return emitOpError() << "target_name is empty";
  int32_t version = getApiVersion();
  if (version < 0 || version > 4)
    return emitOpError() << "api_version must be 0-4, got " << version;
  if (Attribute config = getBackendConfigAttr()) {
    if (version == 4 && !isa<DictionaryAttr>(config))
      return emitOpError() << "with api_version 4 (typed FFI) takes its attributes as a "
                              "dictionary backend_config, got "
                           << config;
    if (version < 4 && !isa<StringAttr>(config))
      return emitOpError() << "with api_version " << version
                           << " takes a string backend_config, got " << config;
  }
  if (std::optional<StringRef> method = getVmapMethod(); method && !isVmapMethod(*method))
    return emitOpError() << "vmap_method must be one of \"sequential\", "
                            "\"sequential_unrolled\", \"expand_dims\", \"broadcast_all\", "
                            "\"legacy_vectorized\"; got \""
                         << *method << "\"";
  if (failed(verifyLayouts(*this, getOperandLayoutsAttr(), getOperandTypes(), "operand")) ||
      failed(verifyLayouts(*this, getResultLayoutsAttr(), getResultTypes(), "result")))
    return failure();
  if (std::optional<ArrayRef<int64_t>> aliases = getInputOutputAliases()) {
    if (aliases->size() % 2)
      return emitOpError() << "input_output_aliases must hold (operand, result) pairs";
    for (size_t k = 0; k < aliases->size(); k += 2) {
      int64_t in = (*aliases)[k], out = (*aliases)[k + 1];
      if (in < 0 || in >= (int64_t)getNumOperands() || out < 0 ||
          out >= (int64_t)getNumResults())
        return emitOpError() << "input_output_aliases pair (" << in << ", " << out
                             << ") is out of range for " << getNumOperands()
                             << " operands and " << getNumResults() << " results";
      if (getOperand(in).getType() != getResult(out).getType() ||
          getOperandLayout(in) != getResultLayout(out))
        return emitOpError() << "input_output_aliases pair (" << in << ", " << out
                             << ") aliases an operand and a result of different types "
                                "or layouts";
    }
  }
  return success();
}

void FfiCallOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  if (!getHasSideEffect())
    return;
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

// No derivative, as in JAX: an error as soon as a nonzero tangent or
// cotangent reaches the call.
static LogicalResult ffiNoDerivative(FfiCallOp op, ArrayRef<Value> ds) {
  if (llvm::all_of(ds, [](Value v) { return !v; }))
    return success();
  return op.emitOpError() << "The FFI call to `" << op.getTargetName()
                          << "` cannot be differentiated. You can use `jax.custom_jvp` or "
                             "`jax.custom_jvp` to add support.";
}

LogicalResult FfiCallOp::jvp(OpBuilder &, ArrayRef<Value> tangents,
                             SmallVectorImpl<Value> &resultTangents) {
  if (failed(ffiNoDerivative(*this, tangents)))
    return failure();
  resultTangents.append(getNumResults(), Value());
  return success();
}

LogicalResult FfiCallOp::vjp(OpBuilder &, ArrayRef<Value> cotangents,
                             SmallVectorImpl<Value> &operandCotangents) {
  if (failed(ffiNoDerivative(*this, cotangents)))
    return failure();
  operandCotangents.append(getNumOperands(), Value());
  return success();
}

// The layouts of a call made on the whole batch: the new leading (batch)
// dimension is the slowest one (jax/_src/ffi.py ffi_batching_rule).
static ArrayAttr batchLayouts(ArrayAttr layouts, ArrayRef<bool> batched) {
  if (!layouts)
    return layouts;
  SmallVector<Attribute> out;
  for (auto [i, attr] : llvm::enumerate(layouts)) {
    if (!batched[i]) {
      out.push_back(attr);
      continue;
    }
    SmallVector<int64_t> order;
    for (int64_t d : cast<DenseI64ArrayAttr>(attr).asArrayRef())
      order.push_back(d + 1);
    order.push_back(0);
    out.push_back(DenseI64ArrayAttr::get(layouts.getContext(), order));
  }
  return ArrayAttr::get(layouts.getContext(), out);
}

LogicalResult FfiCallOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool> batched,
                               int64_t batchSize, SmallVectorImpl<Value> &results) {
  std::optional<StringRef> method = getVmapMethod();
  if (!method)
    return emitOpError(
        "vmap is only supported for the ffi_call primitive when vmap_method is one of "
        "'sequential', 'sequential_unrolled', 'expand_dims', 'broadcast_all', or "
        "'legacy_vectorized'. Got vmap_method=None.");
  if (*method == "sequential") {
    batchAsScan(*this, b, operands, batched, batchSize, results);
    return success();
  }
  if (*method == "sequential_unrolled") {
    batchUnrolled(*this, b, operands, batched, batchSize, results);
    return success();
  }
  auto clone = cast<FfiCallOp>(batchVectorized(*this, b, operands, batched, batchSize, *method));
  // Every operand has the batch dimension but with legacy_vectorized,
  // where unbatched ones keep their shape and layout.
  SmallVector<bool> operandBatched(batched);
  if (*method != "legacy_vectorized")
    operandBatched.assign(batched.size(), true);
  clone.setOperandLayoutsAttr(batchLayouts(getOperandLayoutsAttr(), operandBatched));
  clone.setResultLayoutsAttr(
      batchLayouts(getResultLayoutsAttr(), SmallVector<bool>(getNumResults(), true)));
  results.append(clone->getResults().begin(), clone->getResults().end());
  return success();
}
