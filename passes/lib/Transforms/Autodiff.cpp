//===- Autodiff.cpp - the mlax-autodiff pass ------------------------------===//
//
// Expands `mlax.jvp` and `mlax.vjp` into calls of generated derivative
// functions. A derivative function is built from a flattened copy of the
// callee (nested `mlax.call`s inlined), then:
//
//  * forward mode walks the copy in order, asking each op's
//    `DifferentiableOpInterface::jvp` for its result tangents;
//  * reverse mode walks it backwards from the seeded results, asking each op
//    on the path from the `wrt` arguments for its operand cotangents
//    (`vjp`) and summing cotangents of values used more than once.
//
// Null values are zero (co)tangents, so inactive code costs nothing. The pass
// itself never looks at op names: everything op-specific is in the interface
// (the op family's Mlax<Family>Ops.cpp), except the call-like ops (custom
// calls, remat_call, shard_map), whose derivatives are other functions.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxBuilder.h"
#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "mlax/Transforms/Passes.h"
#include "mlax/Transforms/TransformRequests.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <utility>

namespace mlir::mlax {
#define GEN_PASS_DEF_MLAXAUTODIFF
#include "mlax/Transforms/Passes.h.inc"
} // namespace mlir::mlax

using namespace mlir;
using namespace mlir::mlax;

namespace {

Value accumulate(OpBuilder &b, Location loc, Value acc, Value x) {
  if (!acc)
    return x;
  if (!x)
    return acc;
  return AddOp::create(b, loc, acc, x);
}

bool isComplexTensor(Type type) {
  auto tensor = llvm::dyn_cast<RankedTensorType>(type);
  return tensor && llvm::isa<ComplexType>(tensor.getElementType());
}

/// Complex values carry (co)tangents (JAX's convention: every rule is the
/// plain transpose, no conjugation), but an op whose rule is written for real
/// values only would give wrong numbers where one does: an error instead.
/// `carries` says which of the op's values carry a derivative.
LogicalResult checkComplexRule(Operation *op, llvm::function_ref<bool(Value)> carries) {
  if (!op->hasTrait<OpTrait::mlax::RealDerivativeOnly>())
    return success();
  auto complexCarrier = [&](Value v) { return isComplexTensor(v.getType()) && carries(v); };
  if (llvm::any_of(op->getOperands(), complexCarrier) ||
      llvm::any_of(op->getResults(), complexCarrier))
    return op->emitOpError("has a derivative rule for real values only; mlax does not "
                           "differentiate it on complex values yet");
  return success();
}

/// Replaces `op`'s results with `primals` (from the op that now computes
/// them too), also among the values the function returns.
void replacePrimals(Operation *op, ValueRange primals, SmallVectorImpl<Value> &returned) {
  for (Value &r : returned)
    if (r.getDefiningOp() == op)
      r = primals[llvm::cast<OpResult>(r).getResultNumber()];
  for (auto [old, now] : llvm::zip(op->getResults(), primals))
    old.replaceAllUsesWith(now);
}

/// A flattened copy of a function body in a generated function.
struct FlatCopy {
  SmallVector<Operation *> ops; // the copied ops, in order
  SmallVector<Value> results;   // the values the function returns
};

class Differentiator {
public:
  explicit Differentiator(SymbolTable &symbols) : symbols(symbols), generated(symbols) {}

  FailureOr<func::FuncOp> jvpFunction(func::FuncOp f, ArrayRef<int64_t> wrt);
  /// (primals..., cotangents of seeds...) -> (results..., cotangents of
  /// wrt...). With `resultsGiven`, `f`'s results follow as arguments and the
  /// derivative uses them instead of recomputing them (see RematCallOp).
  FailureOr<func::FuncOp> vjpFunction(func::FuncOp f, ArrayRef<int64_t> wrt,
                                      ArrayRef<int64_t> seeds, bool resultsGiven = false);
  /// The vjp of `f` split in two: `fwd` (f's arguments) -> (f's results,
  /// residuals) and `bwd` (residuals, cotangents) -> cotangents; see
  /// SplitDerivative.
  FailureOr<std::pair<func::FuncOp, func::FuncOp>>
  splitVjpFunction(func::FuncOp f, ArrayRef<int64_t> wrt, ArrayRef<int64_t> seeds);
  func::FuncOp lookup(FlatSymbolRefAttr name) {
    return symbols.lookup<func::FuncOp>(name.getValue());
  }
  int64_t numGenerated() const { return generated.count(); }

  /// Forward mode through cond / while / scan: emits, right after `op`, one
  /// op of the same kind computing primals and tangents together;
  /// `primals` receives its primal results (which replace `op`'s).
  LogicalResult jvpControlFlow(Operation *op, func::FuncOp fn, ArrayRef<Value> tangents,
                               SmallVectorImpl<Value> &primals,
                               SmallVectorImpl<Value> &resultTangents);
  /// Reverse mode through cond / scan (while raises JAX's error). Backward
  /// code goes at `b`; a scan's forward pass is replaced by one that also
  /// stacks the residuals, its new primal results in `primals`.
  LogicalResult vjpControlFlow(Operation *op, func::FuncOp fn, OpBuilder &b,
                               const DenseSet<Value> &active, ArrayRef<Value> cotangents,
                               SmallVectorImpl<Value> &primals,
                               SmallVectorImpl<Value> &operandCotangents);

  /// Forward mode through shard_map: the shard_map of the callee's jvp
  /// (tangents sharded as their primals), emitted at `b`; `primals` receives
  /// its primal results (which replace `op`'s).
  LogicalResult jvpShardMap(ShardMapOp op, OpBuilder &b, ArrayRef<Value> tangents,
                            SmallVectorImpl<Value> &primals,
                            SmallVectorImpl<Value> &resultTangents);
  /// Reverse mode through shard_map: the shard_map of a body that divides
  /// each result cotangent by the size of the mesh axes its out sharding
  /// replicates it over, applies the callee's vjp, and sums each operand
  /// cotangent over the mesh axes its in sharding replicates it over.
  LogicalResult vjpShardMap(ShardMapOp op, OpBuilder &b, const DenseSet<Value> &active,
                            ArrayRef<Value> cts, SmallVectorImpl<Value> &operandCotangents);

private:
  FailureOr<func::FuncOp> startFunction(func::FuncOp f, StringRef suffix,
                                        ArrayRef<Type> inputs, ArrayRef<Type> results,
                                        bool inlineRemat, FlatCopy &copy);
  LogicalResult flatten(func::FuncOp f, ValueRange args, OpBuilder &b, FlatCopy &copy,
                        SmallPtrSetImpl<Operation *> &onStack, bool inlineRemat);

  /// Reverse mode through a call op as a plain call of `callee` (the vjp
  /// of the callee, called on the op's operands and cotangents): a
  /// remat_call (its operands behind `barrier`), and the custom_jvp calls
  /// met while transposing a custom_jvp rule (see `linear`).
  LogicalResult vjpThroughCallee(Operation *op, FlatSymbolRefAttr callee, OpBuilder &b,
                                 const DenseSet<Value> &active, ArrayRef<Value> cts,
                                 bool barrier, SmallVectorImpl<Value> &out,
                                 bool resultsGiven = false);

  SymbolTable &symbols;
  GeneratedFunctions generated;
  /// Set while a custom_jvp rule is transposed (and in everything that
  /// transposition reaches). The custom_jvp calls it differentiates there act
  /// on tangents, and JAX transposes them through their primal function, not
  /// their rule (partial evaluation inlines them: their rules are only ever
  /// used to linearize). Transposing them through their rule instead would
  /// recurse without end for a rule that calls its own function on tangents.
  /// A custom_vjp call there keeps its bwd: the rule is linear in what it
  /// acts on, so bwd is its transpose (lax.custom_linear_solve relies on it:
  /// its rule solves again, and only transpose_solve may transpose that).
  bool linear = false;
  std::map<std::tuple<std::string, std::string, SmallVector<int64_t>, SmallVector<int64_t>>,
           func::FuncOp>
      cache;
};

LogicalResult Differentiator::vjpThroughCallee(Operation *op, FlatSymbolRefAttr calleeName,
                                               OpBuilder &b, const DenseSet<Value> &active,
                                               ArrayRef<Value> cts, bool barrier,
                                               SmallVectorImpl<Value> &out,
                                               bool resultsGiven) {
  Location loc = op->getLoc();
  SmallVector<int64_t> wrtArgs, seedResults;
  for (auto [i, v] : llvm::enumerate(op->getOperands()))
    if (active.contains(v))
      wrtArgs.push_back(i);
  for (auto [j, r] : llvm::enumerate(op->getResults()))
    if (ad::isDifferentiableType(r.getType()))
      seedResults.push_back(j);
  FailureOr<func::FuncOp> calleeVjp =
      vjpFunction(lookup(calleeName), wrtArgs, seedResults, resultsGiven);
  if (failed(calleeVjp))
    return failure();
  SmallVector<Value> args(op->getOperands()), given(op->getResults());
  if (barrier) {
    SmallVector<Value> fenced(op->getOperands());
    if (resultsGiven)
      fenced.append(op->getResults().begin(), op->getResults().end());
    auto fence = OptimizationBarrierOp::create(b, loc, fenced);
    args.assign(fence.getResults().begin(), fence.getResults().begin() + op->getNumOperands());
    given.assign(fence.getResults().begin() + op->getNumOperands(), fence.getResults().end());
  }
  for (int64_t j : seedResults)
    args.push_back(cts[j] ? cts[j] : ad::zeros(b, loc, op->getResult(j).getType()));
  if (resultsGiven)
    args.append(given.begin(), given.end());
  auto call = makeCall(b, loc, calleeVjp->getFunctionType().getResults(),
                       FlatSymbolRefAttr::get(calleeVjp->getSymNameAttr()), args);
  out.assign(op->getNumOperands(), Value());
  for (auto [k, i] : llvm::enumerate(wrtArgs))
    out[i] = call.getResult(op->getNumResults() + k);
  return success();
}

/// Creates `f` + `suffix` with the given signature and copies `f`'s body,
/// flattened, into it; the new function's first arguments stand for `f`'s.
FailureOr<func::FuncOp> Differentiator::startFunction(func::FuncOp f, StringRef suffix,
                                                      ArrayRef<Type> inputs,
                                                      ArrayRef<Type> results,
                                                      bool inlineRemat, FlatCopy &copy) {
  func::FuncOp fn =
      generated.create(f, suffix, FunctionType::get(f.getContext(), inputs, results));
  Block &entry = fn.getBody().front();
  OpBuilder b = OpBuilder::atBlockEnd(&entry);
  SmallPtrSet<Operation *, 4> onStack;
  if (failed(flatten(f, entry.getArguments().take_front(f.getNumArguments()), b, copy,
                     onStack, inlineRemat)))
    return failure();
  return fn;
}

/// Copies `f`'s body into `b`'s block with `args` for its arguments,
/// inlining every `mlax.call` (so derivative rules see only ordinary ops).
LogicalResult Differentiator::flatten(func::FuncOp f, ValueRange args, OpBuilder &b,
                                      FlatCopy &copy, SmallPtrSetImpl<Operation *> &onStack,
                                      bool inlineRemat) {
  if (!f.getBody().hasOneBlock())
    return f.emitOpError("mlax-autodiff: can only differentiate single-block functions");
  if (!onStack.insert(f).second)
    return f.emitOpError("mlax-autodiff: cannot differentiate a recursive function");
  IRMapping map;
  Block &body = f.getBody().front();
  map.map(body.getArguments(), args);
  for (Operation &op : body) {
    if (auto ret = llvm::dyn_cast<func::ReturnOp>(op)) {
      for (Value v : ret.getOperands())
        copy.results.push_back(map.lookup(v));
      continue;
    }
    // Calls are inlined; so are rematerialised calls in forward mode (in
    // reverse mode their derivative is a call of their own vjp function).
    if (llvm::isa<CallOp>(op) || (inlineRemat && llvm::isa<RematCallOp>(op))) {
      auto calleeName = op.getAttrOfType<FlatSymbolRefAttr>("callee");
      func::FuncOp callee = lookup(calleeName);
      if (!callee)
        return op.emitOpError("mlax-autodiff: callee not found");
      SmallVector<Value> operands;
      for (Value v : op.getOperands())
        operands.push_back(map.lookup(v));
      FlatCopy inner;
      if (failed(flatten(callee, operands, b, inner, onStack, inlineRemat)))
        return failure();
      copy.ops.append(inner.ops);
      map.map(op.getResults(), inner.results);
      continue;
    }
    copy.ops.push_back(b.clone(op, map));
  }
  onStack.erase(f);
  return success();
}

FailureOr<func::FuncOp> Differentiator::jvpFunction(func::FuncOp f, ArrayRef<int64_t> wrt) {
  auto key = std::make_tuple(std::string("jvp"), f.getSymName().str(),
                             SmallVector<int64_t>(wrt), SmallVector<int64_t>());
  if (auto it = cache.find(key); it != cache.end())
    return it->second;

  // (primals..., tangents of wrt...) -> (results..., tangents of results...)
  FunctionType type = f.getFunctionType();
  SmallVector<Type> inputs(type.getInputs()), results(type.getResults());
  for (int64_t i : wrt)
    inputs.push_back(type.getInput(i));
  results.append(type.getResults().begin(), type.getResults().end());
  FlatCopy copy;
  FailureOr<func::FuncOp> started =
      startFunction(f, "_jvp", inputs, results, /*inlineRemat=*/true, copy);
  if (failed(started))
    return failure();
  func::FuncOp fn = *started;
  cache[key] = fn;
  Block &entry = fn.getBody().front();
  OpBuilder b = OpBuilder::atBlockEnd(&entry);
  unsigned n = type.getNumInputs();

  DenseMap<Value, Value> tangent;
  for (auto [k, i] : llvm::enumerate(wrt))
    tangent[entry.getArgument(i)] = entry.getArgument(n + k);

  // Tangent code goes right after the op it differentiates.
  for (Operation *op : copy.ops) {
    SmallVector<Value> tangents;
    for (Value v : op->getOperands())
      tangents.push_back(tangent.lookup(v));
    if (llvm::all_of(tangents, [](Value t) { return !t; }))
      continue;
    auto used = [&](Value r) { return !r.use_empty() || llvm::is_contained(copy.results, r); };
    if (llvm::any_of(op->getResults(), used) &&
        failed(checkComplexRule(op, [&](Value v) {
          return v.getDefiningOp() == op ? used(v) : static_cast<bool>(tangent.lookup(v));
        })))
      return failure();
    if (!llvm::any_of(op->getResultTypes(), ad::isDifferentiableType))
      continue;
    b.setInsertionPointAfter(op);
    SmallVector<Value> out;
    if (llvm::isa<CondOp, WhileOp, ScanOp>(op)) {
      SmallVector<Value> primals;
      if (failed(jvpControlFlow(op, fn, tangents, primals, out)))
        return failure();
      replacePrimals(op, primals, copy.results);
      for (auto [r, t] : llvm::zip(primals, out))
        if (t && ad::isDifferentiableType(r.getType()))
          tangent[r] = t;
      continue;
    }
    if (auto shardMap = llvm::dyn_cast<ShardMapOp>(op)) {
      SmallVector<Value> primals;
      if (failed(jvpShardMap(shardMap, b, tangents, primals, out)))
        return failure();
      replacePrimals(op, primals, copy.results);
      for (auto [r, t] : llvm::zip(primals, out))
        if (t && ad::isDifferentiableType(r.getType()))
          tangent[r] = t;
      op->erase(); // not pure (its callee may have effects): nothing else removes it
      continue;
    }
    if (auto custom = llvm::dyn_cast<CustomJvpCallOp>(op)) {
      // The rule computes results and tangents together.
      SmallVector<Value> operands(custom.getOperands());
      for (auto [t, v] : llvm::zip(tangents, custom.getOperands()))
        operands.push_back(t ? t : ad::zeros(b, op->getLoc(), v.getType()));
      func::FuncOp rule = lookup(custom.getJvpRuleAttr());
      auto call = makeCall(b, op->getLoc(), rule.getFunctionType().getResults(),
                                 custom.getJvpRuleAttr(), operands);
      unsigned nres = custom.getNumResults();
      out.append(call.getResults().begin() + nres, call.getResults().end());
    } else if (llvm::isa<CustomVjpCallOp>(op)) {
      return op->emitOpError(
          "can't apply forward-mode autodiff (jvp) to a custom_vjp function");
    } else {
      auto iface = llvm::dyn_cast<DifferentiableOpInterface>(op);
      if (!iface)
        return op->emitOpError("has no derivative rule (DifferentiableOpInterface); "
                               "mlax-autodiff cannot differentiate through it");
      if (failed(iface.jvp(b, tangents, out)))
        return failure();
    }
    for (auto [r, t] : llvm::zip(op->getResults(), out))
      if (t && ad::isDifferentiableType(r.getType()))
        tangent[r] = t;
  }

  b.setInsertionPointToEnd(&entry);
  SmallVector<Value> returned(copy.results);
  for (Value r : copy.results) {
    Value t = tangent.lookup(r);
    returned.push_back(t ? t : ad::zeros(b, fn.getLoc(), r.getType()));
  }
  func::ReturnOp::create(b, fn.getLoc(), returned);
  return fn;
}

FailureOr<func::FuncOp> Differentiator::vjpFunction(func::FuncOp f, ArrayRef<int64_t> wrt,
                                                    ArrayRef<int64_t> seeds,
                                                    bool resultsGiven) {
  auto key = std::make_tuple(std::string(linear ? "vjp_linear" : "vjp") +
                                 (resultsGiven ? "_given" : ""),
                             f.getSymName().str(), SmallVector<int64_t>(wrt),
                             SmallVector<int64_t>(seeds));
  if (auto it = cache.find(key); it != cache.end())
    return it->second;

  // (primals..., cotangents of seeds...[, results...]) -> (results...,
  // cotangents of wrt...)
  FunctionType type = f.getFunctionType();
  SmallVector<Type> inputs(type.getInputs()), results(type.getResults());
  for (int64_t i : seeds)
    inputs.push_back(type.getResult(i));
  if (resultsGiven)
    inputs.append(type.getResults().begin(), type.getResults().end());
  for (int64_t i : wrt)
    results.push_back(type.getInput(i));
  FlatCopy copy;
  FailureOr<func::FuncOp> started =
      startFunction(f, "_vjp", inputs, results, /*inlineRemat=*/false, copy);
  if (failed(started))
    return failure();
  func::FuncOp fn = *started;
  cache[key] = fn;
  Block &entry = fn.getBody().front();
  OpBuilder b = OpBuilder::atBlockEnd(&entry);
  unsigned n = type.getNumInputs();

  // The values a seeded result depends on through real or complex floats.
  DenseSet<Value> needed;
  for (int64_t i : seeds)
    needed.insert(copy.results[i]);
  for (Operation *op : llvm::reverse(copy.ops))
    if (llvm::any_of(op->getResults(), [&](Value r) {
          return needed.contains(r) && ad::isDifferentiableType(r.getType());
        }))
      needed.insert(op->getOperands().begin(), op->getOperands().end());

  // Forward: the values that depend on a wrt argument.
  DenseSet<Value> active;
  for (int64_t i : wrt)
    active.insert(entry.getArgument(i));
  for (Operation *op : copy.ops) {
    if (llvm::none_of(op->getOperands(), [&](Value v) { return active.contains(v); }))
      continue;
    // stop_gradient's result carries no derivative (JAX's symbolic zero), so
    // the ops it feeds are not reached, as JAX's rules are not: those with
    // no derivative (pure callbacks, composites) may take it.
    if (llvm::isa<StopGradientOp>(op))
      continue;
    if (llvm::any_of(op->getResults(), [&](Value r) { return needed.contains(r); }) &&
        failed(checkComplexRule(op, [&](Value v) {
          return v.getDefiningOp() == op ? needed.contains(v) : active.contains(v);
        })))
      return failure();
    for (Value r : op->getResults())
      if (ad::isDifferentiableType(r.getType()))
        active.insert(r);
  }

  // Backward: cotangents from the seeded results to the wrt arguments.
  DenseMap<Value, Value> cotangent;
  for (auto [k, i] : llvm::enumerate(seeds)) {
    Value r = copy.results[i];
    if (active.contains(r))
      cotangent[r] = accumulate(b, fn.getLoc(), cotangent.lookup(r), entry.getArgument(n + k));
  }
  SmallVector<Operation *> replaced; // custom_vjp calls whose fwd gives their results
  for (Operation *op : llvm::reverse(copy.ops)) {
    SmallVector<Value> cts;
    for (Value r : op->getResults())
      cts.push_back(cotangent.lookup(r));
    if (llvm::all_of(cts, [](Value c) { return !c; }))
      continue;
    Location loc = op->getLoc();
    SmallVector<Value> out;
    if (llvm::isa<CondOp, WhileOp, ScanOp>(op)) {
      SmallVector<Value> primals;
      if (failed(vjpControlFlow(op, fn, b, active, cts, primals, out)))
        return failure();
      if (!primals.empty())
        replacePrimals(op, primals, copy.results);
    } else if (linear && llvm::isa<CustomJvpCallOp>(op)) {
      auto callee = llvm::cast<CustomJvpCallOp>(op).getCalleeAttr();
      if (failed(vjpThroughCallee(op, callee, b, active, cts, /*barrier=*/false, out)))
        return failure();
    } else if (auto custom = llvm::dyn_cast<CustomVjpCallOp>(op)) {
      // residuals = fwd(x); operand cotangents = bwd(residuals, cotangents).
      // fwd's primal results replace the call's, as JAX's custom_vjp runs
      // fwd under differentiation, so that no custom_vjp call is left for a
      // forward-mode request over this derivative to meet (a hessian through
      // lax.custom_linear_solve's transposed rule).
      func::FuncOp fwd = lookup(custom.getFwdAttr()), bwd = lookup(custom.getBwdAttr());
      CallOp fwdCall;
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(op);
        fwdCall = makeCall(b, loc, fwd.getFunctionType().getResults(), custom.getFwdAttr(),
                           custom.getOperands());
      }
      replacePrimals(op, fwdCall.getResults().take_front(custom.getNumResults()),
                     copy.results);
      replaced.push_back(op);
      SmallVector<Value> bwdArgs(fwdCall.getResults().drop_front(custom.getNumResults()));
      for (auto [c, r] : llvm::zip(cts, custom.getResults()))
        bwdArgs.push_back(c ? c : ad::zeros(b, loc, r.getType()));
      auto bwdCall = makeCall(b, loc, bwd.getFunctionType().getResults(),
                                    custom.getBwdAttr(), bwdArgs);
      out.append(bwdCall.getResults().begin(), bwdCall.getResults().end());
    } else if (auto shardMap = llvm::dyn_cast<ShardMapOp>(op)) {
      if (failed(vjpShardMap(shardMap, b, active, cts, out)))
        return failure();
    } else if (auto remat = llvm::dyn_cast<RematCallOp>(op)) {
      // Recompute the callee from its operands, behind a barrier so that
      // neither CSE nor XLA merges the recomputation into the forward pass.
      // A call computing the values a checkpoint policy saves (marked
      // `mlax.saves_results`) gives its derivative its results too: the
      // backward uses the saved values where the callee's own ops do.
      if (failed(vjpThroughCallee(op, remat.getCalleeAttr(), b, active, cts, /*barrier=*/true,
                                  out, op->hasAttr("mlax.saves_results"))))
        return failure();
    } else if (auto custom = llvm::dyn_cast<CustomJvpCallOp>(op)) {
      // The rule is linear in its tangents: transpose it by differentiating
      // it in reverse mode with respect to them, at zero tangents.
      func::FuncOp rule = lookup(custom.getJvpRuleAttr());
      unsigned nin = custom.getNumOperands(), nres = custom.getNumResults();
      SmallVector<int64_t> ruleWrt, ruleSeeds;
      for (auto [i, v] : llvm::enumerate(custom.getOperands()))
        if (ad::isDifferentiableType(v.getType()))
          ruleWrt.push_back(nin + i);
      for (auto [j, r] : llvm::enumerate(custom.getResults()))
        if (ad::isDifferentiableType(r.getType()))
          ruleSeeds.push_back(nres + j);
      bool wasLinear = std::exchange(linear, true);
      FailureOr<func::FuncOp> ruleVjp = vjpFunction(rule, ruleWrt, ruleSeeds);
      linear = wasLinear;
      if (failed(ruleVjp))
        return failure();
      SmallVector<Value> args(custom.getOperands());
      for (Value v : custom.getOperands())
        args.push_back(ad::zeros(b, loc, v.getType()));
      for (int64_t j : ruleSeeds) {
        Value c = cts[j - nres];
        args.push_back(c ? c : ad::zeros(b, loc, custom.getResult(j - nres).getType()));
      }
      auto call = makeCall(b, loc, ruleVjp->getFunctionType().getResults(),
                                 FlatSymbolRefAttr::get(ruleVjp->getSymNameAttr()), args);
      out.assign(nin, Value());
      for (auto [k, i] : llvm::enumerate(ruleWrt))
        out[i - nin] = call.getResult(2 * nres + k);
    } else {
      auto iface = llvm::dyn_cast<DifferentiableOpInterface>(op);
      if (!iface)
        return op->emitOpError("has no derivative rule (DifferentiableOpInterface); "
                               "mlax-autodiff cannot differentiate through it");
      // A general reduce's rule gives its init values no cotangent: one that
      // depends on a differentiated input is JAX's error, not a zero.
      if (auto reduce = llvm::dyn_cast<ReduceOp>(op))
        if (llvm::any_of(reduce.getInitValues(), [&](Value v) { return active.contains(v); }))
          return op->emitOpError("gradient of general lax.reduce with non-zero tangents for "
                                 "initial values to reduction is not implemented");
      if (failed(iface.vjp(b, cts, out)))
        return failure();
    }
    for (auto [v, c] : llvm::zip(op->getOperands(), out))
      if (c && active.contains(v))
        cotangent[v] = accumulate(b, loc, cotangent.lookup(v), c);
  }

  SmallVector<Value> returned(copy.results);
  for (int64_t i : wrt) {
    Value arg = entry.getArgument(i);
    Value c = cotangent.lookup(arg);
    returned.push_back(c ? c : ad::zeros(b, fn.getLoc(), arg.getType()));
  }
  func::ReturnOp::create(b, fn.getLoc(), returned);
  for (Operation *op : replaced)
    op->erase();
  if (resultsGiven) {
    // The results are given (saved by the forward pass): every use of one,
    // in the primal recomputation and in the derivative, takes the given
    // value; what only computed it is left dead (for DCE).
    unsigned given = n + seeds.size();
    for (auto [i, r] : llvm::enumerate(copy.results))
      if (r.getDefiningOp())
        r.replaceAllUsesWith(entry.getArgument(given + i));
  }
  return fn;
}

//===----------------------------------------------------------------------===//
// shard_map (jax/_src/shard_map.py: _shard_map_jvp, _shard_map_transpose).
// The callee's derivative functions run per device, in a shard_map with the
// same mesh; tangents and cotangents are sharded as their primals.
//===----------------------------------------------------------------------===//

LogicalResult Differentiator::jvpShardMap(ShardMapOp op, OpBuilder &b,
                                          ArrayRef<Value> tangents,
                                          SmallVectorImpl<Value> &primals,
                                          SmallVectorImpl<Value> &resultTangents) {
  SmallVector<int64_t> wrt;
  SmallVector<Value> operands(op.getOperands());
  SmallVector<Attribute> in(op.getInShardings().getValue());
  for (auto [i, t] : llvm::enumerate(tangents))
    if (t && ad::isDifferentiableType(op.getOperands()[i].getType())) {
      wrt.push_back(i);
      operands.push_back(t);
      in.push_back(op.getInShardings()[i]);
    }
  FailureOr<func::FuncOp> rule = jvpFunction(lookup(op.getCalleeAttr()), wrt);
  if (failed(rule))
    return failure();
  SmallVector<Attribute> out(op.getOutShardings().getValue());
  out.append(op.getOutShardings().begin(), op.getOutShardings().end());
  SmallVector<Type> types(op.getResultTypes());
  types.append(op.getResultTypes().begin(), op.getResultTypes().end());
  auto jvp = ShardMapOp::create(b, op.getLoc(), types,
                                FlatSymbolRefAttr::get(rule->getSymNameAttr()), operands,
                                b.getArrayAttr(in), b.getArrayAttr(out));
  unsigned n = op.getNumResults();
  primals.append(jvp.getResults().begin(), jvp.getResults().begin() + n);
  resultTangents.append(jvp.getResults().begin() + n, jvp.getResults().end());
  return success();
}

LogicalResult Differentiator::vjpShardMap(ShardMapOp op, OpBuilder &b,
                                          const DenseSet<Value> &active, ArrayRef<Value> cts,
                                          SmallVectorImpl<Value> &operandCotangents) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  SmallVector<int64_t> wrt, seeds;
  for (auto [i, v] : llvm::enumerate(op.getOperands()))
    if (active.contains(v))
      wrt.push_back(i);
  for (auto [j, r] : llvm::enumerate(op.getResults()))
    if (ad::isDifferentiableType(r.getType()))
      seeds.push_back(j);
  func::FuncOp callee = lookup(op.getCalleeAttr());
  FailureOr<func::FuncOp> calleeVjp = vjpFunction(callee, wrt, seeds);
  if (failed(calleeVjp))
    return failure();

  // The mesh axes (of size > 1) a sharding replicates its value over.
  auto replicatedAxes = [&](ShardingAttr s) {
    SmallVector<Attribute> names;
    int64_t size = 1;
    for (int64_t a : s.getUnusedAxes())
      if (s.getAxisSizes()[a] > 1) {
        names.push_back(s.getAxisNames()[a]);
        size *= s.getAxisSizes()[a];
      }
    return std::make_pair(ArrayAttr::get(ctx, names), size);
  };

  // The per-device body: (operand pieces..., cotangent pieces of seeds...)
  // -> (cotangent pieces of wrt operands...).
  FunctionType type = callee.getFunctionType();
  SmallVector<Type> inputs(type.getInputs()), results;
  for (int64_t j : seeds)
    inputs.push_back(type.getResult(j));
  for (int64_t i : wrt)
    results.push_back(type.getInput(i));
  func::FuncOp body =
      generated.create(callee, "_transpose", FunctionType::get(ctx, inputs, results));
  Block &entry = body.getBody().front();
  OpBuilder bb = OpBuilder::atBlockEnd(&entry);
  MlaxBuilder m(bb, loc);
  unsigned n = type.getNumInputs();
  SmallVector<Value> args(entry.getArguments().take_front(n));
  for (auto [k, j] : llvm::enumerate(seeds)) {
    // The global cotangent is one copy of a value every device along the
    // replicated axes holds: each copy gets its share.
    Value ct = entry.getArgument(n + k);
    int64_t size = replicatedAxes(op.getOutSharding(j)).second;
    args.push_back(size > 1 ? m.div(ct, m.like(ct, (double)size)) : ct);
  }
  auto call = makeCall(bb, loc, calleeVjp->getFunctionType().getResults(),
                       FlatSymbolRefAttr::get(calleeVjp->getSymNameAttr()), args);
  SmallVector<Value> returned;
  for (auto [k, i] : llvm::enumerate(wrt)) {
    // The operand was broadcast to every device along the replicated axes:
    // its cotangent sums theirs.
    Value c = call.getResult(type.getNumResults() + k);
    ShardingAttr s = op.getInSharding(i);
    ArrayAttr axes = replicatedAxes(s).first;
    if (!axes.empty())
      c = AllReduceOp::create(bb, loc, AllReduceKindAttr::get(ctx, AllReduceKind::Sum), c, axes,
                              s.getMesh(), /*vmap_axes=*/MeshAttr());
    returned.push_back(c);
  }
  func::ReturnOp::create(bb, loc, returned);

  SmallVector<Value> operands(op.getOperands());
  SmallVector<Attribute> in(op.getInShardings().getValue()), out;
  for (int64_t j : seeds) {
    operands.push_back(cts[j] ? cts[j] : ad::zeros(b, loc, op.getResult(j).getType()));
    in.push_back(op.getOutShardings()[j]);
  }
  SmallVector<Type> types;
  for (int64_t i : wrt) {
    types.push_back(op.getOperands()[i].getType());
    out.push_back(op.getInShardings()[i]);
  }
  auto transpose = ShardMapOp::create(b, loc, types, FlatSymbolRefAttr::get(body.getSymNameAttr()),
                                      operands, b.getArrayAttr(in), b.getArrayAttr(out));
  operandCotangents.assign(op.getNumOperands(), Value());
  for (auto [k, i] : llvm::enumerate(wrt))
    operandCotangents[i] = transpose.getResult(k);
  return success();
}

//===----------------------------------------------------------------------===//
// Control flow. Each region is outlined into a function, which is
// differentiated like any other; the new op's regions call the result.
//===----------------------------------------------------------------------===//

static SmallVector<Type> typesOf(ValueRange values) {
  return SmallVector<Type>(values.getTypes());
}

LogicalResult Differentiator::jvpControlFlow(Operation *op, func::FuncOp fn,
                                             ArrayRef<Value> tangents,
                                             SmallVectorImpl<Value> &primals,
                                             SmallVectorImpl<Value> &resultTangents) {
  OpBuilder b(op->getContext());
  b.setInsertionPointAfter(op);
  Location loc = op->getLoc();
  auto tangentOr0 = [&](Value t, Value primal) {
    return t ? t : ad::zeros(b, loc, primal.getType());
  };

  if (auto cond = llvm::dyn_cast<CondOp>(op)) {
    SmallVector<int64_t> wrt;
    SmallVector<Value> operands(cond.getInputs());
    for (auto [k, v] : llvm::enumerate(cond.getInputs()))
      if (Value t = tangents[k + 1]) {
        wrt.push_back(k);
        operands.push_back(t);
      }
    SmallVector<func::FuncOp> rules;
    for (Region &region : cond.getBranches()) {
      func::FuncOp branch = outlineRegion(region, fn, "_branch", generated);
      FailureOr<func::FuncOp> rule = jvpFunction(branch, wrt);
      if (failed(rule))
        return failure();
      rules.push_back(*rule);
    }
    SmallVector<Type> types(cond.getResultTypes());
    types.append(cond.getResultTypes().begin(), cond.getResultTypes().end());
    auto jvp = CondOp::create(b, loc, types, cond.getIndex(), operands, rules.size());
    for (auto [region, rule] : llvm::zip(jvp.getBranches(), rules))
      fillRegion(b, loc, region, typesOf(operands), [&](OpBuilder &rb, Block *block) {
        return callFunction(rb, loc, rule, block->getArguments());
      });
    unsigned n = cond.getNumResults();
    primals.append(jvp.getResults().begin(), jvp.getResults().begin() + n);
    resultTangents.append(jvp.getResults().begin() + n, jvp.getResults().end());
    return success();
  }

  if (auto loop = llvm::dyn_cast<WhileOp>(op)) {
    unsigned n = loop.getNumResults();
    SmallVector<bool> start;
    for (Value t : tangents)
      start.push_back(static_cast<bool>(t));
    SmallVector<bool> state =
        loopFixedPoint(loop.getBody().front(), start, {}, n, /*floatOnly=*/true);
    SmallVector<int64_t> wrt;
    SmallVector<Value> operands(loop.getInputs());
    for (unsigned i = 0; i < n; ++i)
      if (state[i]) {
        wrt.push_back(i);
        operands.push_back(tangentOr0(tangents[i], loop.getInputs()[i]));
      }
    func::FuncOp condFn = outlineRegion(loop.getCond(), fn, "_cond", generated);
    func::FuncOp bodyFn = outlineRegion(loop.getBody(), fn, "_body", generated);
    FailureOr<func::FuncOp> bodyJvp = jvpFunction(bodyFn, wrt);
    if (failed(bodyJvp))
      return failure();
    auto jvp = WhileOp::create(b, loc, typesOf(operands), operands);
    fillRegion(b, loc, jvp.getCond(), typesOf(operands), [&](OpBuilder &rb, Block *block) {
      return callFunction(rb, loc, condFn, block->getArguments().take_front(n));
    });
    fillRegion(b, loc, jvp.getBody(), typesOf(operands), [&](OpBuilder &rb, Block *block) {
      SmallVector<Value> out = callFunction(rb, loc, *bodyJvp, block->getArguments());
      SmallVector<Value> next(out.begin(), out.begin() + n);
      for (int64_t i : wrt)
        next.push_back(out[n + i]);
      return next;
    });
    primals.append(jvp.getResults().begin(), jvp.getResults().begin() + n);
    resultTangents.assign(n, Value());
    for (auto [k, i] : llvm::enumerate(wrt))
      resultTangents[i] = jvp.getResult(n + k);
    return success();
  }

  auto scan = llvm::cast<ScanOp>(op);
  unsigned nc = scan.getInit().size(), nx = scan.getXs().size(), nk = scan.getConsts().size();
  unsigned ny = scan.getYs().size();
  ArrayRef<Value> tInit = tangents.take_front(nc), tXs = tangents.slice(nc, nx),
                  tConsts = tangents.slice(nc + nx, nk);
  SmallVector<bool> start, other;
  for (Value t : tInit)
    start.push_back(static_cast<bool>(t));
  for (Value t : llvm::concat<const Value>(tXs, tConsts))
    other.push_back(static_cast<bool>(t));
  Block &body = scan.getBody().front();
  SmallVector<bool> state = loopFixedPoint(body, start, other, nc, /*floatOnly=*/true);
  SmallVector<bool> inputs(state);
  inputs.append(other);
  SmallVector<bool> dependent = dependentResults(body, inputs, /*floatOnly=*/true);

  SmallVector<int64_t> wrt;
  SmallVector<Value> init(scan.getInit()), xs(scan.getXs()), consts(scan.getConsts());
  for (unsigned i = 0; i < nc; ++i)
    if (state[i]) {
      wrt.push_back(i);
      init.push_back(tangentOr0(tInit[i], scan.getInit()[i]));
    }
  for (unsigned k = 0; k < nx; ++k)
    if (tXs[k]) {
      wrt.push_back(nc + k);
      xs.push_back(tXs[k]);
    }
  for (unsigned k = 0; k < nk; ++k)
    if (tConsts[k]) {
      wrt.push_back(nc + nx + k);
      consts.push_back(tConsts[k]);
    }
  func::FuncOp bodyFn = outlineRegion(scan.getBody(), fn, "_body", generated);
  FailureOr<func::FuncOp> bodyJvp = jvpFunction(bodyFn, wrt);
  if (failed(bodyJvp))
    return failure();
  SmallVector<int64_t> yTangents;
  for (unsigned j = 0; j < ny; ++j)
    if (dependent[nc + j])
      yTangents.push_back(j);
  SmallVector<Type> types(typesOf(init));
  auto ysTypes = scan.getYs().getTypes();
  types.append(ysTypes.begin(), ysTypes.end());
  for (int64_t j : yTangents)
    types.push_back(ysTypes[j]);
  auto jvp = ScanOp::create(b, loc, types, init, xs, consts, scan.getLengthAttr(),
                            scan.getReverseAttr(), scan.getUnrollAttr());
  unsigned ns = init.size() - nc, ntx = xs.size() - nx;
  fillRegion(b, loc, jvp.getBody(), scanBodyTypes(init, xs, consts), [&](OpBuilder &rb, Block *block) {
    ValueRange a = block->getArguments();
    // (carry, x, consts, then the tangents in wrt order: carry, x, consts)
    SmallVector<Value> args;
    llvm::append_range(args, a.slice(0, nc));
    llvm::append_range(args, a.slice(nc + ns, nx));
    llvm::append_range(args, a.slice(nc + ns + nx + ntx, nk));
    llvm::append_range(args, a.slice(nc, ns));
    llvm::append_range(args, a.slice(nc + ns + nx, ntx));
    llvm::append_range(args, a.slice(nc + ns + nx + ntx + nk, consts.size() - nk));
    SmallVector<Value> out = callFunction(rb, loc, *bodyJvp, args);
    unsigned nr = nc + ny;
    SmallVector<Value> yielded(out.begin(), out.begin() + nc);
    for (int64_t i : wrt)
      if (i < nc)
        yielded.push_back(out[nr + i]);
    yielded.append(out.begin() + nc, out.begin() + nr);
    for (int64_t j : yTangents)
      yielded.push_back(out[nr + nc + j]);
    return yielded;
  });
  primals.append(jvp.getResults().begin(), jvp.getResults().begin() + nc);
  primals.append(jvp.getResults().begin() + nc + ns, jvp.getResults().begin() + nc + ns + ny);
  resultTangents.assign(nc + ny, Value());
  unsigned k = 0;
  for (int64_t i : wrt)
    if (i < nc)
      resultTangents[i] = jvp.getResult(nc + k++);
  for (auto [m, j] : llvm::enumerate(yTangents))
    resultTangents[nc + j] = jvp.getResult(nc + ns + ny + m);
  return success();
}

namespace {
/// A derivative function (primal args, then cotangent args) split in two:
/// `fwd` (primal args) -> (primal results, residuals) and `bwd` (invariant
/// args, residuals, cotangent args) -> (cotangent results). Ops that depend
/// on no cotangent are forward; of those, the ones that depend only on the
/// invariant arguments (a scan's consts) are recomputed in `bwd` rather than
/// saved, and the rest that `bwd` needs are the residuals.
struct SplitDerivative {
  func::FuncOp fwd, bwd;
  SmallVector<Type> residualTypes;
  /// For each residual, the primal argument it is (or -1): such residuals
  /// need not be saved by a loop when the argument is a scanned input.
  SmallVector<int64_t> residualArgs;
};
} // namespace

static SplitDerivative splitDerivative(func::FuncOp vjp, unsigned numPrimalArgs,
                                       unsigned numPrimalResults, ArrayRef<bool> invariantArgs,
                                       func::FuncOp from, GeneratedFunctions &generated) {
  Block &entry = vjp.getBody().front();
  auto ret = llvm::cast<func::ReturnOp>(entry.getTerminator());
  DenseSet<Value> backward, invariant;
  for (auto [i, arg] : llvm::enumerate(entry.getArguments())) {
    if (i >= numPrimalArgs)
      backward.insert(arg);
    else if (invariantArgs[i])
      invariant.insert(arg);
  }
  SmallVector<Operation *> fwdOps, invOps, bwdOps;
  for (Operation &op : entry.without_terminator()) {
    if (llvm::any_of(op.getOperands(), [&](Value v) { return backward.contains(v); })) {
      bwdOps.push_back(&op);
      for (Value r : op.getResults())
        backward.insert(r);
      continue;
    }
    fwdOps.push_back(&op);
    if (llvm::all_of(op.getOperands(), [&](Value v) { return invariant.contains(v); })) {
      invOps.push_back(&op);
      for (Value r : op.getResults())
        invariant.insert(r);
    }
  }
  SmallVector<Value> residuals;
  DenseSet<Value> seen;
  auto need = [&](Value v) {
    if (!backward.contains(v) && !invariant.contains(v) && seen.insert(v).second)
      residuals.push_back(v);
  };
  for (Operation *op : bwdOps)
    for (Value v : op->getOperands())
      need(v);
  for (Value v : ret.getOperands().drop_front(numPrimalResults))
    need(v);

  SplitDerivative split;
  for (Value r : residuals) {
    split.residualTypes.push_back(r.getType());
    auto arg = llvm::dyn_cast<BlockArgument>(r);
    split.residualArgs.push_back(arg && arg.getOwner() == &entry ? arg.getArgNumber() : -1);
  }
  MLIRContext *ctx = vjp.getContext();
  Location loc = vjp.getLoc();
  SmallVector<Type> argTypes(entry.getArgumentTypes());
  ArrayRef<Type> resTypes = vjp.getFunctionType().getResults();

  // fwd: primal args -> primal results, residuals.
  SmallVector<Type> fwdResults(resTypes.take_front(numPrimalResults));
  fwdResults.append(split.residualTypes);
  split.fwd = generated.create(from, "_fwd",
                               FunctionType::get(ctx, ArrayRef<Type>(argTypes).take_front(numPrimalArgs),
                                                 fwdResults));
  {
    Block &fe = split.fwd.getBody().front();
    OpBuilder fb = OpBuilder::atBlockEnd(&fe);
    IRMapping map;
    map.map(entry.getArguments().take_front(numPrimalArgs), fe.getArguments());
    for (Operation *op : fwdOps)
      fb.clone(*op, map);
    SmallVector<Value> out;
    for (Value v : ret.getOperands().take_front(numPrimalResults))
      out.push_back(map.lookupOrDefault(v));
    for (Value v : residuals)
      out.push_back(map.lookupOrDefault(v));
    func::ReturnOp::create(fb, loc, out);
  }
  // bwd: invariant args, residuals, cotangent args -> cotangent results.
  SmallVector<Type> bwdArgs;
  SmallVector<unsigned> invariantIndices;
  for (unsigned i = 0; i < numPrimalArgs; ++i)
    if (invariantArgs[i]) {
      invariantIndices.push_back(i);
      bwdArgs.push_back(argTypes[i]);
    }
  bwdArgs.append(split.residualTypes);
  bwdArgs.append(argTypes.begin() + numPrimalArgs, argTypes.end());
  split.bwd = generated.create(
      from, "_bwd", FunctionType::get(ctx, bwdArgs, resTypes.drop_front(numPrimalResults)));
  {
    Block &be = split.bwd.getBody().front();
    OpBuilder bb = OpBuilder::atBlockEnd(&be);
    IRMapping map;
    unsigned a = 0;
    for (unsigned i : invariantIndices)
      map.map(entry.getArgument(i), be.getArgument(a++));
    for (Value r : residuals)
      map.map(r, be.getArgument(a++));
    for (unsigned i = numPrimalArgs; i < entry.getNumArguments(); ++i)
      map.map(entry.getArgument(i), be.getArgument(a++));
    for (Operation *op : invOps)
      bb.clone(*op, map);
    for (Operation *op : bwdOps)
      bb.clone(*op, map);
    SmallVector<Value> out;
    for (Value v : ret.getOperands().drop_front(numPrimalResults))
      out.push_back(map.lookupOrDefault(v));
    func::ReturnOp::create(bb, loc, out);
  }
  return split;
}

FailureOr<std::pair<func::FuncOp, func::FuncOp>>
Differentiator::splitVjpFunction(func::FuncOp f, ArrayRef<int64_t> wrt,
                                 ArrayRef<int64_t> seeds) {
  FailureOr<func::FuncOp> vjp = vjpFunction(f, wrt, seeds);
  if (failed(vjp))
    return failure();
  FunctionType type = f.getFunctionType();
  SmallVector<bool> invariant(type.getNumInputs(), false);
  SplitDerivative split = splitDerivative(*vjp, type.getNumInputs(), type.getNumResults(),
                                          invariant, f, generated);
  return std::make_pair(split.fwd, split.bwd);
}

LogicalResult Differentiator::vjpControlFlow(Operation *op, func::FuncOp fn, OpBuilder &b,
                                             const DenseSet<Value> &active,
                                             ArrayRef<Value> cts,
                                             SmallVectorImpl<Value> &primals,
                                             SmallVectorImpl<Value> &out) {
  Location loc = op->getLoc();
  out.assign(op->getNumOperands(), Value());

  if (llvm::isa<WhileOp>(op))
    return op->emitOpError(
        "Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop "
        "with dynamic start/stop values. Try using lax.scan, or using fori_loop with "
        "static start/stop.");

  if (auto cond = llvm::dyn_cast<CondOp>(op)) {
    // Each backward branch recomputes its forward branch and pulls back.
    SmallVector<int64_t> wrt, seeds;
    for (auto [k, v] : llvm::enumerate(cond.getInputs()))
      if (active.contains(v))
        wrt.push_back(k);
    SmallVector<Value> operands(cond.getInputs());
    for (auto [j, c] : llvm::enumerate(cts))
      if (c) {
        seeds.push_back(j);
        operands.push_back(c);
      }
    if (wrt.empty())
      return success();
    SmallVector<func::FuncOp> rules;
    for (Region &region : cond.getBranches()) {
      func::FuncOp branch = outlineRegion(region, fn, "_branch", generated);
      FailureOr<func::FuncOp> rule = vjpFunction(branch, wrt, seeds);
      if (failed(rule))
        return failure();
      rules.push_back(*rule);
    }
    SmallVector<Type> types;
    for (int64_t k : wrt)
      types.push_back(cond.getInputs()[k].getType());
    unsigned n = cond.getNumResults();
    auto back = CondOp::create(b, loc, types, cond.getIndex(), operands, rules.size());
    for (auto [region, rule] : llvm::zip(back.getBranches(), rules))
      fillRegion(b, loc, region, typesOf(operands), [&](OpBuilder &rb, Block *block) {
        SmallVector<Value> res = callFunction(rb, loc, rule, block->getArguments());
        return SmallVector<Value>(res.begin() + n, res.end());
      });
    for (auto [m, k] : llvm::enumerate(wrt))
      out[1 + k] = back.getResult(m);
    return success();
  }

  auto scan = llvm::cast<ScanOp>(op);
  unsigned nc = scan.getInit().size(), nx = scan.getXs().size(), nk = scan.getConsts().size();
  unsigned ny = scan.getYs().size();
  int64_t length = scan.getLength();
  SmallVector<bool> start, other;
  for (Value v : scan.getInit())
    start.push_back(active.contains(v));
  for (Value v : llvm::concat<Value>(scan.getXs(), scan.getConsts()))
    other.push_back(active.contains(v));
  Block &body = scan.getBody().front();
  SmallVector<bool> state = loopFixedPoint(body, start, other, nc, /*floatOnly=*/true);
  SmallVector<bool> inputs(state);
  inputs.append(other);
  SmallVector<bool> dependent = dependentResults(body, inputs, /*floatOnly=*/true);

  SmallVector<int64_t> wrt, seeds;
  for (unsigned i = 0; i < nc; ++i)
    if (state[i])
      wrt.push_back(i);
  for (unsigned k = 0; k < nx + nk; ++k)
    if (other[k])
      wrt.push_back(nc + k);
  if (wrt.empty())
    return success();
  for (unsigned i = 0; i < nc; ++i)
    if (state[i])
      seeds.push_back(i);
  SmallVector<int64_t> ySeeds;
  for (unsigned j = 0; j < ny; ++j)
    if (dependent[nc + j] && cts[nc + j]) {
      seeds.push_back(nc + j);
      ySeeds.push_back(j);
    }
  func::FuncOp bodyFn = outlineRegion(scan.getBody(), fn, "_body", generated);
  FailureOr<func::FuncOp> bodyVjp = vjpFunction(bodyFn, wrt, seeds);
  if (failed(bodyVjp))
    return failure();
  unsigned numArgs = nc + nx + nk;
  SmallVector<bool> invariantArgs(numArgs, false);
  for (unsigned k = 0; k < nk; ++k)
    invariantArgs[nc + nx + k] = true;
  SplitDerivative split =
      splitDerivative(*bodyVjp, numArgs, nc + ny, invariantArgs, fn, generated);
  unsigned nr = split.residualTypes.size();

  // Forward: the scan again, also stacking the residuals of every step
  // (except the xs slices themselves: the backward scan reads the xs).
  {
    OpBuilder fb(op->getContext());
    fb.setInsertionPointAfter(op);
    SmallVector<Type> types(scan.getResultTypes());
    SmallVector<unsigned> saved;
    for (auto [m, t] : llvm::enumerate(split.residualTypes)) {
      int64_t a = split.residualArgs[m];
      if (a >= nc && a < nc + nx)
        continue;
      saved.push_back(m);
      types.push_back(vec::insertAxis(t, 0, length));
    }
    auto fwd = ScanOp::create(fb, loc, types, scan.getInit(), scan.getXs(), scan.getConsts(),
                              scan.getLengthAttr(), scan.getReverseAttr(),
                              scan.getUnrollAttr());
    fillRegion(fb, loc, fwd.getBody(), body.getArgumentTypes(),
               [&](OpBuilder &rb, Block *block) {
                 SmallVector<Value> res = callFunction(rb, loc, split.fwd,
                                                      block->getArguments());
                 SmallVector<Value> yielded(res.begin(), res.begin() + nc + ny);
                 for (unsigned m : saved)
                   yielded.push_back(res[nc + ny + m]);
                 return yielded;
               });
    primals.append(fwd.getResults().begin(), fwd.getResults().begin() + nc + ny);
    // Backward: a scan the other way over (residuals, ys cotangents), carrying
    // the carry cotangents and the sums of the consts' cotangents.
    SmallVector<Value> bInit, bXs;
    for (unsigned m = 0, next = nc + ny; m < nr; ++m) {
      int64_t a = split.residualArgs[m];
      bXs.push_back(a >= nc && a < nc + nx ? scan.getXs()[a - nc] : fwd.getResult(next++));
    }
    for (int64_t i : wrt)
      if (i < nc)
        bInit.push_back(cts[i] ? cts[i] : ad::zeros(b, loc, scan.getInit()[i].getType()));
    SmallVector<int64_t> constWrt, xWrt;
    for (int64_t i : wrt) {
      if (i >= nc + nx) {
        constWrt.push_back(i - nc - nx);
        bInit.push_back(ad::zeros(b, loc, scan.getConsts()[i - nc - nx].getType()));
      } else if (i >= nc) {
        xWrt.push_back(i - nc);
      }
    }
    for (int64_t j : ySeeds)
      bXs.push_back(cts[nc + j]);
    SmallVector<Type> bTypes(typesOf(bInit));
    for (int64_t k : xWrt)
      bTypes.push_back(scan.getXs()[k].getType());
    auto back = ScanOp::create(b, loc, bTypes, bInit, bXs, scan.getConsts(),
                               scan.getLengthAttr(),
                               scan.getReverse() ? UnitAttr() : b.getUnitAttr(),
                               scan.getUnrollAttr());
    unsigned ns = bInit.size() - constWrt.size(), nsk = constWrt.size();
    fillRegion(b, loc, back.getBody(), scanBodyTypes(bInit, bXs, scan.getConsts()), [&](OpBuilder &rb, Block *block) {
      ValueRange a = block->getArguments();
      ValueRange ctCarry = a.slice(0, ns), acc = a.slice(ns, nsk), res = a.slice(ns + nsk, nr),
                 ctY = a.slice(ns + nsk + nr, ySeeds.size()),
                 cs = a.slice(ns + nsk + nr + ySeeds.size(), nk);
      SmallVector<Value> args(cs);
      llvm::append_range(args, res);
      llvm::append_range(args, ctCarry);
      llvm::append_range(args, ctY);
      SmallVector<Value> ct = callFunction(rb, loc, split.bwd, args);
      // ct: carries (in wrt order), then xs, then consts.
      SmallVector<Value> yielded(ct.begin(), ct.begin() + ns);
      for (unsigned m = 0; m < nsk; ++m)
        yielded.push_back(AddOp::create(rb, loc, acc[m], ct[ns + xWrt.size() + m]));
      yielded.append(ct.begin() + ns, ct.begin() + ns + xWrt.size());
      return yielded;
    });
    unsigned m = 0;
    for (int64_t i : wrt)
      if (i < nc)
        out[i] = back.getResult(m++);
    for (auto [q, k] : llvm::enumerate(constWrt))
      out[nc + nx + k] = back.getResult(ns + q);
    for (auto [q, k] : llvm::enumerate(xWrt))
      out[nc + k] = back.getResult(ns + nsk + q);
  }
  return success();
}

/// Expands jvp/vjp requests; afterwards the custom calls become plain calls
/// and stop_gradient disappears.
class AutodiffExpander : public RequestExpander {
public:
  AutodiffExpander(ModuleOp module, SymbolTable &symbols) : module(module), diff(symbols) {}
  bool handles(Operation *op) const override { return llvm::isa<JvpOp, VjpOp>(op); }
  int64_t numGenerated() const override { return diff.numGenerated(); }

  LogicalResult expand(Operation *op) override {
    FailureOr<func::FuncOp> fn = failure();
    if (auto jvp = llvm::dyn_cast<JvpOp>(op))
      fn = diff.jvpFunction(diff.lookup(jvp.getCalleeAttr()), jvp.getWrt());
    else if (auto vjp = llvm::dyn_cast<VjpOp>(op)) {
      if (CallOp call = forwardCallOf(vjp))
        return shareForward(vjp, call);
      fn = diff.vjpFunction(diff.lookup(vjp.getCalleeAttr()), vjp.getWrt(), vjp.getSeeds());
    }
    if (failed(fn))
      return failure();
    replaceWithCall(op, FlatSymbolRefAttr::get(fn->getSymNameAttr()));
    return success();
  }

  void finish() override {
    // Every derivative exists now: the rest is ordinary calls.
    module.walk([&](Operation *op) {
      FlatSymbolRefAttr callee;
      if (auto custom = llvm::dyn_cast<CustomJvpCallOp>(op))
        callee = custom.getCalleeAttr();
      else if (auto custom = llvm::dyn_cast<CustomVjpCallOp>(op))
        callee = custom.getCalleeAttr();
      else if (auto remat = llvm::dyn_cast<RematCallOp>(op))
        callee = remat.getCalleeAttr();
      if (callee)
        replaceWithCall(op, callee);
      else if (auto stop = llvm::dyn_cast<StopGradientOp>(op)) {
        stop.replaceAllUsesWith(stop.getOperand());
        op->erase();
      }
    });
  }

private:
  /// A plain call of the vjp's callee on the same primals, earlier in the
  /// same block, when the callee has side effects (a host callback): JAX
  /// runs the forward of `y, pullback = vjp(f, x)` once, and pulling back
  /// does not run it again; CSE merges only side-effect-free duplicates.
  /// Not for a callee with checkpointed parts (their forward is recomputed
  /// by the backward on purpose).
  CallOp forwardCallOf(VjpOp vjp) {
    func::FuncOp callee = diff.lookup(vjp.getCalleeAttr());
    if (!callee)
      return nullptr;
    CallOp found;
    for (Operation *prev = vjp->getPrevNode(); prev && !found; prev = prev->getPrevNode()) {
      auto call = llvm::dyn_cast<CallOp>(prev);
      if (call && call.getCalleeAttr() == vjp.getCalleeAttr() &&
          llvm::equal(call.getOperands(), vjp.getPrimals()) &&
          llvm::equal(call.getResultTypes(),
                      callee.getFunctionType().getResults()))
        found = call;
    }
    if (!found)
      return nullptr;
    DenseMap<Operation *, Effects> memo;
    Effects effects = effectsOf(callee, memo);
    return effects.sideEffects && !effects.remat ? found : nullptr;
  }

  /// Replaces `call` by the split vjp's forward (its results and the
  /// residuals) and `vjp` by the backward on those residuals.
  LogicalResult shareForward(VjpOp vjp, CallOp call) {
    auto split = diff.splitVjpFunction(diff.lookup(vjp.getCalleeAttr()), vjp.getWrt(),
                                       vjp.getSeeds());
    if (failed(split))
      return failure();
    auto [fwd, bwd] = *split;
    unsigned n = call.getNumResults();
    OpBuilder b(call);
    SmallVector<Value> forward = callFunction(b, call.getLoc(), fwd, call.getOperands());
    call->replaceAllUsesWith(ArrayRef<Value>(forward).take_front(n));
    call->erase();
    b.setInsertionPoint(vjp);
    SmallVector<Value> args(ArrayRef<Value>(forward).drop_front(n));
    llvm::append_range(args, vjp.getCotangents());
    SmallVector<Value> results(ArrayRef<Value>(forward).take_front(n));
    llvm::append_range(results, callFunction(b, vjp.getLoc(), bwd, args));
    vjp->replaceAllUsesWith(results);
    vjp->erase();
    return success();
  }

  struct Effects {
    bool sideEffects = false, remat = false;
  };
  /// What `fn` and the functions it references (transitively) contain.
  Effects effectsOf(func::FuncOp fn, DenseMap<Operation *, Effects> &memo) {
    if (auto it = memo.find(fn); it != memo.end())
      return it->second;
    memo[fn] = Effects{};
    Effects all;
    fn.walk([&](Operation *op) {
      if (llvm::isa<RematCallOp>(op))
        all.remat = true;
      bool references = false;
      for (NamedAttribute attr : op->getAttrs())
        if (auto ref = llvm::dyn_cast<FlatSymbolRefAttr>(attr.getValue()))
          if (func::FuncOp callee = diff.lookup(ref)) {
            references = true;
            Effects inner = effectsOf(callee, memo);
            all.sideEffects |= inner.sideEffects;
            all.remat |= inner.remat;
          }
      if (!references && !op->hasTrait<OpTrait::IsTerminator>() && op != fn &&
          !isMemoryEffectFree(op))
        all.sideEffects = true;
    });
    memo[fn] = all;
    return all;
  }

  ModuleOp module;
  Differentiator diff;
};

struct MlaxAutodiffPass : mlir::mlax::impl::MlaxAutodiffBase<MlaxAutodiffPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    AutodiffExpander autodiff(module, symbols);
    FailureOr<int64_t> n = expandRequests(module, symbols, {&autodiff});
    if (failed(n))
      return signalPassFailure();
    numExpanded += *n;
    numGenerated += autodiff.numGenerated();
  }
};

} // namespace

std::unique_ptr<RequestExpander> mlax::createAutodiffExpander(ModuleOp module,
                                                              SymbolTable &symbols) {
  return std::make_unique<AutodiffExpander>(module, symbols);
}
