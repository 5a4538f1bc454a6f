//===- TransformRequests.cpp - request ordering, mlax-expand-transforms ---===//

#include "mlax/Transforms/TransformRequests.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "mlax/Transforms/Passes.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir::mlax {
#define GEN_PASS_DEF_MLAXEXPANDTRANSFORMS
#include "mlax/Transforms/Passes.h.inc"
} // namespace mlir::mlax

using namespace mlir;
using namespace mlir::mlax;

RequestExpander::~RequestExpander() = default;

bool mlax::isTransformRequest(Operation *op) { return llvm::isa<JvpOp, VjpOp, VmapOp>(op); }

CallOp mlax::makeCall(OpBuilder &b, Location loc, TypeRange results, FlatSymbolRefAttr callee,
                      ValueRange operands) {
  return CallOp::create(b, loc, results, callee, operands, /*arg_attrs=*/nullptr,
                        /*res_attrs=*/nullptr);
}

void mlax::replaceWithCall(Operation *op, FlatSymbolRefAttr callee) {
  OpBuilder b(op);
  CallOp call = makeCall(b, op->getLoc(), op->getResultTypes(), callee, op->getOperands());
  op->replaceAllUsesWith(call.getResults());
  op->erase();
}

func::FuncOp GeneratedFunctions::create(func::FuncOp from, StringRef suffix, FunctionType type) {
  OpBuilder b(from.getContext());
  auto fn = func::FuncOp::create(b, from.getLoc(), (from.getSymName() + suffix).str(), type);
  fn.setPrivate();
  Operation *&last = lastGenerated[from];
  symbols.insert(fn, std::next(Block::iterator(last ? last : from.getOperation())));
  last = fn;
  fn.addEntryBlock();
  ++created;
  return fn;
}

namespace {

/// Whether `fn` and every function it references (transitively) are free of
/// requests, i.e. ready to be transformed.
bool isExpanded(func::FuncOp fn, SymbolTable &symbols, DenseMap<Operation *, bool> &memo) {
  if (auto it = memo.find(fn); it != memo.end())
    return it->second;
  memo[fn] = true; // recursion is reported by the transformation itself
  bool clean = true;
  fn.walk([&](Operation *op) {
    if (isTransformRequest(op)) {
      clean = false;
      return WalkResult::interrupt();
    }
    for (NamedAttribute attr : op->getAttrs()) {
      auto ref = llvm::dyn_cast<FlatSymbolRefAttr>(attr.getValue());
      if (!ref)
        continue;
      auto callee = symbols.lookup<func::FuncOp>(ref.getValue());
      if (callee && !isExpanded(callee, symbols, memo)) {
        clean = false;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  memo[fn] = clean;
  return clean;
}

} // namespace

FailureOr<int64_t> mlax::expandRequests(ModuleOp module, SymbolTable &symbols,
                                        ArrayRef<RequestExpander *> expanders) {
  int64_t expanded = 0;
  auto expanderFor = [&](Operation *op) -> RequestExpander * {
    for (RequestExpander *e : expanders)
      if (e->handles(op))
        return e;
    return nullptr;
  };
  while (true) {
    SmallVector<Operation *> mine;
    module.walk([&](Operation *op) {
      if (isTransformRequest(op) && expanderFor(op))
        mine.push_back(op);
    });
    if (mine.empty())
      break;
    DenseMap<Operation *, bool> memo;
    Operation *ready = nullptr;
    for (Operation *op : mine) {
      auto callee = symbols.lookup<func::FuncOp>(
          llvm::cast<FlatSymbolRefAttr>(op->getAttr("callee")).getValue());
      if (!callee)
        return op->emitOpError("callee not found"), failure();
      if (isExpanded(callee, symbols, memo)) {
        ready = op;
        break;
      }
    }
    if (!ready) {
      mine.front()->emitOpError(
          "cannot be expanded: its callee contains transformation requests that this "
          "pass does not expand, or requests that form a cycle (mlax-expand-transforms "
          "expands every kind)");
      return failure();
    }
    if (failed(expanderFor(ready)->expand(ready)))
      return failure();
    ++expanded;
  }
  for (RequestExpander *e : expanders)
    e->finish();
  return expanded;
}

func::FuncOp mlax::outlineRegion(Region &region, func::FuncOp from, StringRef suffix,
                                 GeneratedFunctions &generated) {
  Block &block = region.front();
  Operation *terminator = block.getTerminator();
  auto type = FunctionType::get(from.getContext(), block.getArgumentTypes(),
                                terminator->getOperandTypes());
  func::FuncOp fn = generated.create(from, suffix, type);
  Block &entry = fn.getBody().front();
  OpBuilder b = OpBuilder::atBlockEnd(&entry);
  IRMapping map;
  map.map(block.getArguments(), entry.getArguments());
  for (Operation &op : block.without_terminator())
    b.clone(op, map);
  SmallVector<Value> results;
  for (Value v : terminator->getOperands())
    results.push_back(map.lookupOrDefault(v));
  func::ReturnOp::create(b, terminator->getLoc(), results);
  return fn;
}

static SmallVector<bool> dependentResultsImpl(Block &block, ArrayRef<bool> inputs,
                                              bool floatOnly, unsigned depth);

void mlax::fillRegion(OpBuilder &b, Location loc, Region &region, TypeRange argTypes,
                      function_ref<SmallVector<Value>(OpBuilder &, Block *)> build) {
  OpBuilder::InsertionGuard guard(b);
  SmallVector<Location> locs(argTypes.size(), loc);
  Block *block = b.createBlock(&region, {}, argTypes, locs);
  SmallVector<Value> results = build(b, block);
  YieldOp::create(b, loc, results);
}

SmallVector<Value> mlax::callFunction(OpBuilder &b, Location loc, func::FuncOp callee,
                                      ValueRange args) {
  auto call = makeCall(b, loc, callee.getFunctionType().getResults(),
                       FlatSymbolRefAttr::get(callee.getSymNameAttr()), args);
  return SmallVector<Value>(call.getResults());
}

SmallVector<Type> mlax::scanBodyTypes(ValueRange init, ValueRange xs, ValueRange consts) {
  SmallVector<Type> types(init.getTypes());
  for (Value x : xs) {
    auto t = llvm::cast<RankedTensorType>(x.getType());
    types.push_back(RankedTensorType::get(t.getShape().drop_front(), t.getElementType()));
  }
  llvm::append_range(types, consts.getTypes());
  return types;
}

SmallVector<bool> mlax::dependentResults(Block &block, ArrayRef<bool> inputs, bool floatOnly) {
  return dependentResultsImpl(block, inputs, floatOnly, 0);
}

static SmallVector<bool> dependentResultsImpl(Block &block, ArrayRef<bool> inputs,
                                              bool floatOnly, unsigned depth) {
  DenseSet<Value> dependent;
  auto carries = [&](Value v) { return !floatOnly || ad::isDifferentiableType(v.getType()); };
  for (auto [arg, flag] : llvm::zip(block.getArguments(), inputs))
    if (flag && carries(arg))
      dependent.insert(arg);
  for (Operation &op : block.without_terminator()) {
    if (llvm::none_of(op.getOperands(), [&](Value v) { return dependent.contains(v); }))
      continue;
    // A call: as precise as its callee (the transformations inline calls).
    if (auto call = llvm::dyn_cast<CallOp>(op); call && depth < 32) {
      auto callee =
          SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(call, call.getCalleeAttr());
      if (callee && callee.getBody().hasOneBlock()) {
        SmallVector<bool> flags;
        for (Value v : call.getOperands())
          flags.push_back(dependent.contains(v));
        SmallVector<bool> out =
            dependentResultsImpl(callee.getBody().front(), flags, floatOnly, depth + 1);
        for (auto [r, flag] : llvm::zip(call.getResults(), out))
          if (flag && carries(r))
            dependent.insert(r);
        continue;
      }
    }
    for (Value r : op.getResults())
      if (carries(r))
        dependent.insert(r);
  }
  SmallVector<bool> result;
  for (Value v : block.getTerminator()->getOperands())
    result.push_back(dependent.contains(v));
  return result;
}

SmallVector<bool> mlax::loopFixedPoint(Block &body, ArrayRef<bool> state, ArrayRef<bool> other,
                                       unsigned otherOffset, bool floatOnly) {
  SmallVector<bool> current(state);
  while (true) {
    SmallVector<bool> inputs(body.getNumArguments(), false);
    for (auto [i, f] : llvm::enumerate(current))
      inputs[i] = f;
    for (auto [i, f] : llvm::enumerate(other))
      inputs[otherOffset + i] = f;
    SmallVector<bool> out = dependentResults(body, inputs, floatOnly);
    bool changed = false;
    for (unsigned i = 0; i < current.size(); ++i)
      if (out[i] && !current[i]) {
        current[i] = true;
        changed = true;
      }
    if (!changed)
      return current;
  }
}

namespace {
struct MlaxExpandTransformsPass
    : mlir::mlax::impl::MlaxExpandTransformsBase<MlaxExpandTransformsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    std::unique_ptr<RequestExpander> vectorize = createVectorizeExpander(module, symbols);
    std::unique_ptr<RequestExpander> autodiff = createAutodiffExpander(module, symbols);
    FailureOr<int64_t> n = expandRequests(module, symbols, {vectorize.get(), autodiff.get()});
    if (failed(n))
      return signalPassFailure();
    numExpanded += *n;
    numGenerated += vectorize->numGenerated() + autodiff->numGenerated();
  }
};
} // namespace
