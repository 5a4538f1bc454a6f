//===- Vectorize.cpp - the mlax-vectorize pass ----------------------------===//
//
// Expands `mlax.vmap` into a call of a generated batched function. The
// callee's body is copied op by op (nested `mlax.call`s inlined); an op whose
// operands are all unbatched is copied unchanged, any other is rewritten by
// its `BatchableOpInterface` rule (dialects/Mlax/MlaxBatching.cpp). Batched
// values carry the batch dimension in front.
//
//===----------------------------------------------------------------------===//

#include "Mlax/MlaxOps.h"
#include "passes/Passes.h"
#include "passes/TransformRequests.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>

namespace mlir::mlax {
#define GEN_PASS_DEF_MLAXVECTORIZE
#include "passes/Passes.h.inc"
} // namespace mlir::mlax

using namespace mlir;
using namespace mlir::mlax;

namespace {

/// Moves dimension `from` of `v` to position `to`.
Value moveAxis(OpBuilder &b, Location loc, Value v, int64_t from, int64_t to) {
  if (from == to)
    return v;
  int64_t rank = llvm::cast<RankedTensorType>(v.getType()).getRank();
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (d != from)
      perm.push_back(d);
  perm.insert(perm.begin() + to, from);
  return TransposeOp::create(b, loc, v, perm);
}

/// A value of the batched function and whether it has the batch dimension.
struct BValue {
  Value value;
  bool batched = false;
};

class Vectorizer {
public:
  explicit Vectorizer(SymbolTable &symbols) : symbols(symbols), generated(symbols) {}

  FailureOr<func::FuncOp> vmapFunction(func::FuncOp f, ArrayRef<int64_t> inAxes,
                                       ArrayRef<int64_t> outAxes, int64_t size);
  func::FuncOp lookup(FlatSymbolRefAttr name) {
    return symbols.lookup<func::FuncOp>(name.getValue());
  }
  int64_t numGenerated() const { return generated.count(); }

private:
  LogicalResult batchBody(func::FuncOp f, ArrayRef<BValue> args, OpBuilder &b, int64_t size,
                          SmallVectorImpl<BValue> &results,
                          SmallPtrSetImpl<Operation *> &onStack);
  FailureOr<Operation *> batchCallLike(Operation *op, ArrayRef<BValue> operands, OpBuilder &b,
                                       int64_t size);
  /// The callee batched along axis 0 of every argument and result.
  FailureOr<FlatSymbolRefAttr> allBatched(FlatSymbolRefAttr name, int64_t size);

  SymbolTable &symbols;
  GeneratedFunctions generated;
  std::map<std::tuple<std::string, SmallVector<int64_t>, SmallVector<int64_t>, int64_t>,
           func::FuncOp>
      cache;
};

FailureOr<func::FuncOp> Vectorizer::vmapFunction(func::FuncOp f, ArrayRef<int64_t> inAxes,
                                                 ArrayRef<int64_t> outAxes, int64_t size) {
  auto key = std::make_tuple(f.getSymName().str(), SmallVector<int64_t>(inAxes),
                             SmallVector<int64_t>(outAxes), size);
  if (auto it = cache.find(key); it != cache.end())
    return it->second;
  FunctionType type = f.getFunctionType();
  SmallVector<Type> inputs, results;
  for (auto [t, a] : llvm::zip(type.getInputs(), inAxes))
    inputs.push_back(a < 0 ? t : vec::insertAxis(t, a, size));
  for (auto [t, a] : llvm::zip(type.getResults(), outAxes))
    results.push_back(a < 0 ? t : vec::insertAxis(t, a, size));

  func::FuncOp fn =
      generated.create(f, "_vmap", FunctionType::get(f.getContext(), inputs, results));
  cache[key] = fn;

  Block *entry = &fn.getBody().front();
  OpBuilder b = OpBuilder::atBlockEnd(entry);
  SmallVector<BValue> args;
  for (auto [arg, a] : llvm::zip(entry->getArguments(), inAxes))
    args.push_back(a < 0 ? BValue{arg, false} : BValue{moveAxis(b, f.getLoc(), arg, a, 0), true});
  SmallVector<BValue> outs;
  SmallPtrSet<Operation *, 4> onStack;
  if (failed(batchBody(f, args, b, size, outs, onStack)))
    return failure();
  SmallVector<Value> returned;
  for (auto [i, pair] : llvm::enumerate(llvm::zip(outs, outAxes))) {
    auto [v, a] = pair;
    if (a < 0) {
      if (v.batched)
        return f.emitOpError() << "mlax-vectorize: result #" << i
                               << " depends on the batch but its out_axes is none";
      returned.push_back(v.value);
      continue;
    }
    Value batched = v.batched ? v.value : vec::broadcastToBatch(b, f.getLoc(), v.value, size);
    returned.push_back(moveAxis(b, f.getLoc(), batched, 0, a));
  }
  func::ReturnOp::create(b, f.getLoc(), returned);
  return fn;
}

LogicalResult Vectorizer::batchBody(func::FuncOp f, ArrayRef<BValue> args, OpBuilder &b,
                                    int64_t size, SmallVectorImpl<BValue> &results,
                                    SmallPtrSetImpl<Operation *> &onStack) {
  if (!f.getBody().hasOneBlock())
    return f.emitOpError("mlax-vectorize: can only batch single-block functions");
  if (!onStack.insert(f).second)
    return f.emitOpError("mlax-vectorize: cannot batch a recursive function");
  DenseMap<Value, BValue> map;
  Block &body = f.getBody().front();
  for (auto [arg, v] : llvm::zip(body.getArguments(), args))
    map[arg] = v;
  for (Operation &op : body) {
    SmallVector<BValue> operands;
    for (Value v : op.getOperands())
      operands.push_back(map.lookup(v));
    if (auto ret = llvm::dyn_cast<func::ReturnOp>(op)) {
      results.append(operands);
      continue;
    }
    if (auto call = llvm::dyn_cast<CallOp>(op)) {
      func::FuncOp callee = lookup(call.getCalleeAttr());
      if (!callee)
        return call.emitOpError("mlax-vectorize: callee not found");
      SmallVector<BValue> inner;
      if (failed(batchBody(callee, operands, b, size, inner, onStack)))
        return failure();
      for (auto [r, v] : llvm::zip(call.getResults(), inner))
        map[r] = v;
      continue;
    }
    bool anyBatched = llvm::any_of(operands, [](const BValue &v) { return v.batched; });
    if (!anyBatched) {
      IRMapping m;
      for (auto [old, v] : llvm::zip(op.getOperands(), operands))
        m.map(old, v.value);
      Operation *clone = b.clone(op, m);
      for (auto [r, c] : llvm::zip(op.getResults(), clone->getResults()))
        map[r] = BValue{c, false};
      continue;
    }
    SmallVector<Value> newResults;
    if (llvm::isa<CustomJvpCallOp, CustomVjpCallOp, RematCallOp>(op)) {
      FailureOr<Operation *> batched = batchCallLike(&op, operands, b, size);
      if (failed(batched))
        return failure();
      newResults.append((*batched)->getResults().begin(), (*batched)->getResults().end());
    } else {
      auto iface = llvm::dyn_cast<BatchableOpInterface>(op);
      if (!iface)
        return op.emitOpError("has no batching rule (BatchableOpInterface); "
                              "mlax-vectorize cannot batch it");
      SmallVector<Value> values;
      SmallVector<bool> flags;
      for (const BValue &v : operands) {
        values.push_back(v.value);
        flags.push_back(v.batched);
      }
      if (failed(iface.batch(b, values, flags, size, newResults)))
        return failure();
    }
    for (auto [r, v] : llvm::zip(op.getResults(), newResults))
      map[r] = BValue{v, true};
  }
  onStack.erase(f);
  return success();
}

FailureOr<FlatSymbolRefAttr> Vectorizer::allBatched(FlatSymbolRefAttr name, int64_t size) {
  func::FuncOp fn = lookup(name);
  SmallVector<int64_t> in(fn.getNumArguments(), 0), out(fn.getNumResults(), 0);
  FailureOr<func::FuncOp> batched = vmapFunction(fn, in, out, size);
  if (failed(batched))
    return failure();
  return FlatSymbolRefAttr::get(batched->getSymNameAttr());
}

/// Calls with user-defined derivatives are batched whole: every operand is
/// given the batch dimension, and the callee and its rules are vmapped, so
/// the rules still apply to the batched call.
FailureOr<Operation *> Vectorizer::batchCallLike(Operation *op, ArrayRef<BValue> operands,
                                                 OpBuilder &b, int64_t size) {
  Location loc = op->getLoc();
  SmallVector<Value> values;
  for (const BValue &v : operands)
    values.push_back(v.batched ? v.value : vec::broadcastToBatch(b, loc, v.value, size));
  SmallVector<Type> types;
  for (Type t : op->getResultTypes())
    types.push_back(vec::batchedType(t, size));
  auto callee = allBatched(op->getAttrOfType<FlatSymbolRefAttr>("callee"), size);
  if (failed(callee))
    return failure();
  if (auto custom = llvm::dyn_cast<CustomJvpCallOp>(op)) {
    auto rule = allBatched(custom.getJvpRuleAttr(), size);
    if (failed(rule))
      return failure();
    return CustomJvpCallOp::create(b, loc, types, *callee, *rule, values).getOperation();
  }
  if (auto custom = llvm::dyn_cast<CustomVjpCallOp>(op)) {
    auto fwd = allBatched(custom.getFwdAttr(), size);
    auto bwd = allBatched(custom.getBwdAttr(), size);
    if (failed(fwd) || failed(bwd))
      return failure();
    return CustomVjpCallOp::create(b, loc, types, *callee, *fwd, *bwd, values).getOperation();
  }
  return RematCallOp::create(b, loc, types, *callee, values).getOperation();
}

class VectorizeExpander : public RequestExpander {
public:
  explicit VectorizeExpander(SymbolTable &symbols) : vec(symbols) {}
  bool handles(Operation *op) const override { return llvm::isa<VmapOp>(op); }
  int64_t numGenerated() const override { return vec.numGenerated(); }

  LogicalResult expand(Operation *op) override {
    auto vmap = llvm::cast<VmapOp>(op);
    FailureOr<func::FuncOp> fn = vec.vmapFunction(vec.lookup(vmap.getCalleeAttr()),
                                                  vmap.getInAxes(), vmap.getOutAxes(),
                                                  vmap.getBatchSize());
    if (failed(fn))
      return failure();
    replaceWithCall(op, FlatSymbolRefAttr::get(fn->getSymNameAttr()));
    return success();
  }

private:
  Vectorizer vec;
};

struct MlaxVectorizePass : mlir::mlax::impl::MlaxVectorizeBase<MlaxVectorizePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    VectorizeExpander vectorize(symbols);
    FailureOr<int64_t> n = expandRequests(module, symbols, {&vectorize});
    if (failed(n))
      return signalPassFailure();
    numExpanded += *n;
    numGenerated += vectorize.numGenerated();
  }
};

} // namespace

std::unique_ptr<RequestExpander> mlax::createVectorizeExpander(ModuleOp module,
                                                               SymbolTable &symbols) {
  return std::make_unique<VectorizeExpander>(symbols);
}
