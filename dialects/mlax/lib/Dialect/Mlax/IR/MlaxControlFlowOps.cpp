//===- MlaxControlFlowOps.cpp - cond, while and scan ----------------------===//
//
// Verifiers check every region's block arguments and yielded values against
// the op's operands and results, so no pass ever sees a region whose
// signature disagrees with its op. Messages name the region and both types.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::mlax;

//===----------------------------------------------------------------------===//
// Parsing the regions of cond, while and scan
//
// MLIR's parser can resolve a name used in one place to a value that a later
// region defines: in a sibling region of the same op, or even outside the op
// (a forward reference at module level resolved to a block argument of a
// region). That IR is invalid (the regions are isolated from above), but
// when a parse then fails, the regions are destroyed while something else
// still uses their values: an abort ("operation destroyed but still has
// uses"), found by the fuzzer (tools/fuzz-mlax-opt.py). These directives
// reject a value used outside the region defining it with a diagnostic, and
// drop every reference into and out of the regions before failing, so
// malformed input is an error, never a crash.
//===----------------------------------------------------------------------===//

namespace {

/// The outermost region holding `op` (a region not yet attached to an op
/// while its op is being parsed).
Region *outermostRegion(Operation *op) {
  Region *region = op->getParentRegion();
  while (region && region->getParentOp())
    region = region->getParentOp()->getParentRegion();
  return region;
}

/// Calls `fn` on every value `region` defines (block arguments and results,
/// at any depth).
void forEachDefinedValue(Region &region, function_ref<void(Value)> fn) {
  region.walk([&](Block *block) {
    for (BlockArgument arg : block->getArguments())
      fn(arg);
    for (Operation &op : *block)
      for (Value result : op.getResults())
        fn(result);
  });
}

ParseResult failDropping(ArrayRef<Region *> regions) {
  for (Region *region : regions) {
    region->dropAllReferences();
    forEachDefinedValue(*region, [](Value v) { v.dropAllUses(); });
  }
  return failure();
}

/// Fails (after dropping all references) if a value one of `regions`
/// defines is used outside that region.
ParseResult checkSelfContained(OpAsmParser &parser, SMLoc loc, ArrayRef<Region *> regions) {
  for (Region *region : regions) {
    bool leaks = false;
    forEachDefinedValue(*region, [&](Value v) {
      for (Operation *user : v.getUsers())
        leaks |= outermostRegion(user) != region;
    });
    if (leaks) {
      (void)failDropping(regions); // (always a failure; the message follows)
      return parser.emitError(loc, "a value defined in a region of the op is used outside "
                                   "that region (each region sees only its block arguments)");
    }
  }
  return success();
}

ParseResult parseSelfContainedRegion(OpAsmParser &parser, Region &region,
                                     ArrayRef<Region *> before) {
  SmallVector<Region *> all(before);
  all.push_back(&region);
  if (parser.parseRegion(region))
    return failDropping(all);
  return success();
}

} // namespace

namespace mlir::mlax {

ParseResult parseBranches(OpAsmParser &parser,
                          SmallVectorImpl<std::unique_ptr<Region>> &branches) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<Region *> parsed;
  auto next = std::make_unique<Region>();
  OptionalParseResult first = parser.parseOptionalRegion(*next);
  if (!first.has_value())
    return success(); // no branches: the verifier says so
  parsed.push_back(next.get());
  branches.push_back(std::move(next));
  if (failed(*first))
    return failDropping(parsed);
  while (succeeded(parser.parseOptionalComma())) {
    branches.push_back(std::make_unique<Region>());
    if (parseSelfContainedRegion(parser, *branches.back(), parsed))
      return failure();
    parsed.push_back(branches.back().get());
  }
  return checkSelfContained(parser, loc, parsed);
}

void printBranches(OpAsmPrinter &printer, Operation *, MutableArrayRef<Region> branches) {
  llvm::interleaveComma(branches, printer, [&](Region &region) { printer.printRegion(region); });
}

ParseResult parseLoopRegions(OpAsmParser &parser, Region &cond, Region &body) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeyword("cond") || parseSelfContainedRegion(parser, cond, {}))
    return failure();
  if (parser.parseKeyword("body"))
    return failDropping({&cond});
  if (parseSelfContainedRegion(parser, body, {&cond}))
    return failure();
  return checkSelfContained(parser, loc, {&cond, &body});
}

void printLoopRegions(OpAsmPrinter &printer, Operation *, Region &cond, Region &body) {
  printer << "cond ";
  printer.printRegion(cond);
  printer << " body ";
  printer.printRegion(body);
}

ParseResult parseBody(OpAsmParser &parser, Region &body) {
  SMLoc loc = parser.getCurrentLocation();
  if (parseSelfContainedRegion(parser, body, {}))
    return failure();
  return checkSelfContained(parser, loc, {&body});
}

void printBody(OpAsmPrinter &printer, Operation *, Region &body) { printer.printRegion(body); }

} // namespace mlir::mlax

namespace {

/// Checks that `region`'s block takes `expected` and returns its yield.
FailureOr<YieldOp> checkRegion(Operation *op, Region &region, StringRef name,
                               TypeRange expected) {
  Block &block = region.front();
  if (block.getNumArguments() != expected.size())
    return op->emitOpError() << name << " takes " << block.getNumArguments()
                             << " arguments but the op passes it " << expected.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(block.getArgumentTypes(), expected))) {
    auto [have, want] = pair;
    if (have != want)
      return op->emitOpError() << name << " argument #" << i << " has type " << have
                               << " but the op passes " << want;
  }
  // The op verifier runs before its regions' ops are verified: the block
  // may not end with a terminator yet.
  auto yield = block.empty() ? YieldOp() : llvm::dyn_cast<YieldOp>(block.back());
  if (!yield)
    return op->emitOpError() << name << " must end with mlax.yield";
  return yield;
}

LogicalResult checkYield(Operation *op, YieldOp yield, StringRef name, StringRef what,
                         TypeRange expected) {
  TypeRange have = yield.getResults().getTypes();
  if (have.size() != expected.size())
    return op->emitOpError() << name << " yields " << have.size() << " values but "
                             << what << " " << expected.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(have, expected))) {
    auto [h, w] = pair;
    if (h != w)
      return op->emitOpError() << name << " yields " << h << " as value #" << i
                               << " but " << what << " " << w;
  }
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// cond
//===----------------------------------------------------------------------===//

LogicalResult CondOp::verify() {
  if (getBranches().empty())
    return emitOpError("needs at least one branch");
  for (auto [i, region] : llvm::enumerate(getBranches())) {
    std::string name = "branch " + std::to_string(i);
    FailureOr<YieldOp> yield = checkRegion(*this, region, name, getInputs().getTypes());
    if (failed(yield) ||
        failed(checkYield(*this, *yield, name, "the op's results are", getResultTypes())))
      return failure();
  }
  return success();
}

namespace {
/// A cond whose index is a constant (or that has one branch) is that branch.
struct InlineKnownBranch : OpRewritePattern<CondOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CondOp op, PatternRewriter &rewriter) const override {
    int64_t n = op.getBranches().size();
    int64_t chosen = n - 1;
    if (n > 1) {
      DenseIntElementsAttr index;
      if (!matchPattern(op.getIndex(), m_Constant(&index)))
        return failure();
      int64_t i = (*index.getValues<APInt>().begin()).getSExtValue();
      if (i >= 0 && i < n)
        chosen = i;
    }
    Block &block = op.getBranches()[chosen].front();
    auto yield = llvm::cast<YieldOp>(block.getTerminator());
    rewriter.inlineBlockBefore(&block, op, op.getInputs());
    // Read the yielded values after inlining: a yielded block argument has
    // been replaced by the op's input.
    SmallVector<Value> results(yield.getResults());
    rewriter.replaceOp(op, results);
    rewriter.eraseOp(yield);
    return success();
  }
};
} // namespace

void CondOp::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *ctx) {
  results.add<InlineKnownBranch>(ctx);
}

//===----------------------------------------------------------------------===//
// while
//===----------------------------------------------------------------------===//

LogicalResult WhileOp::verify() {
  TypeRange state = getOperands().getTypes();
  if (getResultTypes() != state)
    return emitOpError("results must have the types of the operands (the loop state)");
  FailureOr<YieldOp> cond = checkRegion(*this, getCond(), "cond", state);
  if (failed(cond))
    return failure();
  auto pred = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (failed(checkYield(*this, *cond, "cond", "a loop condition is", TypeRange{pred})))
    return failure();
  FailureOr<YieldOp> body = checkRegion(*this, getBody(), "body", state);
  if (failed(body))
    return failure();
  return checkYield(*this, *body, "body", "the loop state is", state);
}

//===----------------------------------------------------------------------===//
// scan
//===----------------------------------------------------------------------===//

LogicalResult ScanOp::verify() {
  int64_t length = getLengthAttr().getInt();
  if (length < 0)
    return emitOpError() << "length must be non-negative, got " << length;
  // I64Attr getters are unsigned: read the attributes as the signed values
  // they hold (a negative unroll is not a huge one).
  int64_t unroll = getUnrollAttr().getInt();
  if (unroll < 1)
    return emitOpError() << "unroll must be at least 1, got " << unroll;
  SmallVector<Type> args(getInit().getTypes());
  for (auto [i, x] : llvm::enumerate(getXs())) {
    auto type = llvm::cast<RankedTensorType>(x.getType());
    if (type.getRank() == 0 || type.getDimSize(0) != length)
      return emitOpError() << "xs #" << i << " has type " << type
                           << "; scanned values need a leading axis of the length, "
                           << length;
    args.push_back(RankedTensorType::get(type.getShape().drop_front(),
                                         type.getElementType()));
  }
  llvm::append_range(args, getConsts().getTypes());
  FailureOr<YieldOp> yield = checkRegion(*this, getBody(), "body", args);
  if (failed(yield))
    return failure();
  unsigned numCarry = getInit().size();
  TypeRange yielded = yield->getResults().getTypes();
  if (yielded.size() < numCarry)
    return emitOpError() << "body yields " << yielded.size()
                         << " values but the carry alone has " << numCarry;
  for (auto [i, pair] : llvm::enumerate(llvm::zip(yielded.take_front(numCarry),
                                                  getInit().getTypes()))) {
    auto [h, w] = pair;
    if (h != w)
      return emitOpError() << "body yields " << h << " for carry #" << i
                           << " but the carry is " << w;
  }
  SmallVector<Type> expected(getInit().getTypes());
  for (Type y : yielded.drop_front(numCarry)) {
    auto type = llvm::cast<RankedTensorType>(y);
    SmallVector<int64_t> shape{length};
    llvm::append_range(shape, type.getShape());
    expected.push_back(RankedTensorType::get(shape, type.getElementType()));
  }
  if (getResultTypes() != TypeRange(expected)) {
    InFlightDiagnostic diag = emitOpError("results must be the carry then the stacked ys: (");
    llvm::interleaveComma(expected, diag);
    return diag << "), got (" << getResultTypes() << ")";
  }
  return success();
}
