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
// (dialects/Mlax/MlaxDerivatives.cpp), except the three call-like ops, whose
// derivatives are other functions.
//
//===----------------------------------------------------------------------===//

#include "Mlax/MlaxOps.h"
#include "passes/Passes.h"
#include "passes/TransformRequests.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::mlax {
#define GEN_PASS_DEF_MLAXAUTODIFF
#include "passes/Passes.h.inc"
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

/// A flattened copy of a function body in a generated function.
struct FlatCopy {
  SmallVector<Operation *> ops; // the copied ops, in order
  SmallVector<Value> results;   // the values the function returns
};

class Differentiator {
public:
  explicit Differentiator(SymbolTable &symbols) : symbols(symbols), generated(symbols) {}

  FailureOr<func::FuncOp> jvpFunction(func::FuncOp f, ArrayRef<int64_t> wrt);
  FailureOr<func::FuncOp> vjpFunction(func::FuncOp f, ArrayRef<int64_t> wrt,
                                      ArrayRef<int64_t> seeds);
  func::FuncOp lookup(FlatSymbolRefAttr name) {
    return symbols.lookup<func::FuncOp>(name.getValue());
  }
  int64_t numGenerated() const { return generated.count(); }

private:
  FailureOr<func::FuncOp> startFunction(func::FuncOp f, StringRef suffix,
                                        ArrayRef<Type> inputs, ArrayRef<Type> results,
                                        bool inlineRemat, FlatCopy &copy);
  LogicalResult flatten(func::FuncOp f, ValueRange args, OpBuilder &b, FlatCopy &copy,
                        SmallPtrSetImpl<Operation *> &onStack, bool inlineRemat);

  SymbolTable &symbols;
  GeneratedFunctions generated;
  std::map<std::tuple<std::string, std::string, SmallVector<int64_t>, SmallVector<int64_t>>,
           func::FuncOp>
      cache;
};

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

  for (Operation *op : copy.ops) {
    SmallVector<Value> tangents;
    for (Value v : op->getOperands())
      tangents.push_back(tangent.lookup(v));
    if (llvm::all_of(tangents, [](Value t) { return !t; }))
      continue;
    if (!llvm::any_of(op->getResultTypes(), ad::isDifferentiableType))
      continue;
    SmallVector<Value> out;
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

  SmallVector<Value> returned(copy.results);
  for (Value r : copy.results) {
    Value t = tangent.lookup(r);
    returned.push_back(t ? t : ad::zeros(b, fn.getLoc(), r.getType()));
  }
  func::ReturnOp::create(b, fn.getLoc(), returned);
  return fn;
}

FailureOr<func::FuncOp> Differentiator::vjpFunction(func::FuncOp f, ArrayRef<int64_t> wrt,
                                                    ArrayRef<int64_t> seeds) {
  auto key = std::make_tuple(std::string("vjp"), f.getSymName().str(),
                             SmallVector<int64_t>(wrt), SmallVector<int64_t>(seeds));
  if (auto it = cache.find(key); it != cache.end())
    return it->second;

  // (primals..., cotangents of seeds...) -> (results..., cotangents of wrt...)
  FunctionType type = f.getFunctionType();
  SmallVector<Type> inputs(type.getInputs()), results(type.getResults());
  for (int64_t i : seeds)
    inputs.push_back(type.getResult(i));
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

  // Forward: the values that depend on a wrt argument.
  DenseSet<Value> active;
  for (int64_t i : wrt)
    active.insert(entry.getArgument(i));
  for (Operation *op : copy.ops) {
    if (llvm::none_of(op->getOperands(), [&](Value v) { return active.contains(v); }))
      continue;
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
  for (Operation *op : llvm::reverse(copy.ops)) {
    SmallVector<Value> cts;
    for (Value r : op->getResults())
      cts.push_back(cotangent.lookup(r));
    if (llvm::all_of(cts, [](Value c) { return !c; }))
      continue;
    Location loc = op->getLoc();
    SmallVector<Value> out;
    if (auto custom = llvm::dyn_cast<CustomVjpCallOp>(op)) {
      // residuals = fwd(x); operand cotangents = bwd(residuals, cotangents).
      func::FuncOp fwd = lookup(custom.getFwdAttr()), bwd = lookup(custom.getBwdAttr());
      auto fwdCall = makeCall(b, loc, fwd.getFunctionType().getResults(),
                                    custom.getFwdAttr(), custom.getOperands());
      SmallVector<Value> bwdArgs(fwdCall.getResults().drop_front(custom.getNumResults()));
      for (auto [c, r] : llvm::zip(cts, custom.getResults()))
        bwdArgs.push_back(c ? c : ad::zeros(b, loc, r.getType()));
      auto bwdCall = makeCall(b, loc, bwd.getFunctionType().getResults(),
                                    custom.getBwdAttr(), bwdArgs);
      out.append(bwdCall.getResults().begin(), bwdCall.getResults().end());
    } else if (auto remat = llvm::dyn_cast<RematCallOp>(op)) {
      // Recompute the callee from its operands, behind a barrier so that
      // neither CSE nor XLA merges the recomputation into the forward pass.
      func::FuncOp callee = lookup(remat.getCalleeAttr());
      SmallVector<int64_t> wrtArgs, seedResults;
      for (auto [i, v] : llvm::enumerate(remat.getOperands()))
        if (active.contains(v))
          wrtArgs.push_back(i);
      for (auto [j, r] : llvm::enumerate(remat.getResults()))
        if (ad::isDifferentiableType(r.getType()))
          seedResults.push_back(j);
      FailureOr<func::FuncOp> calleeVjp = vjpFunction(callee, wrtArgs, seedResults);
      if (failed(calleeVjp))
        return failure();
      auto barrier = OptimizationBarrierOp::create(b, loc, remat.getOperands());
      SmallVector<Value> args(barrier.getResults());
      for (int64_t j : seedResults)
        args.push_back(cts[j] ? cts[j] : ad::zeros(b, loc, remat.getResult(j).getType()));
      auto call = makeCall(b, loc, calleeVjp->getFunctionType().getResults(),
                           FlatSymbolRefAttr::get(calleeVjp->getSymNameAttr()), args);
      out.assign(remat.getNumOperands(), Value());
      for (auto [k, i] : llvm::enumerate(wrtArgs))
        out[i] = call.getResult(remat.getNumResults() + k);
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
      FailureOr<func::FuncOp> ruleVjp = vjpFunction(rule, ruleWrt, ruleSeeds);
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
  return fn;
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
    else if (auto vjp = llvm::dyn_cast<VjpOp>(op))
      fn = diff.vjpFunction(diff.lookup(vjp.getCalleeAttr()), vjp.getWrt(), vjp.getSeeds());
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
