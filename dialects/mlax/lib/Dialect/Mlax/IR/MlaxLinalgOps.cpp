//===- MlaxLinalgOps.cpp - linear algebra ---------------------------------===//
//
// Shape rules (inferReturnTypes), derivative rules and batching rules of
// cholesky, triangular_solve, eigh, eig (no derivative), qr, svd, geqrf,
// lu, schur, hessenberg, tridiagonal, householder_product (these four have
// no derivative, as in JAX) and tridiagonal_solve; then dot_general's shape
// rule, folder, derivative rules and batching rule. Each shape rule is the
// op's only one: the tracer builds the op through it (without the ODS
// constraints), so it checks every operand and attribute it reads. A
// verifier only names the result a stated type gets wrong. The forward
// rules follow jax/_src/lax/linalg.py; the reverse rules are their
// transposes, written out. Complex matrices follow JAX's rules (conjugate
// transposes where JAX takes `_H`, real parts where it takes `.real`), and
// the reverse rules are their transposes under JAX's convention: the plain
// transpose of each R-linear step (`x -> a x` gives `g -> a^T g`,
// `x -> x^H` gives `g -> g^H`, a real part gives the real part), no
// conjugation of the cotangent.
//
// Every op works on the two trailing dimensions and treats the leading ones
// as a batch, so a batching rule only re-creates the op with the batch
// dimension in front.
//
//===----------------------------------------------------------------------===//

#include "mlax/Dialect/Mlax/IR/MlaxOps.h"
#include "MlaxRuleUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::mlax;
using namespace mlir::mlax::detail;

namespace {


/// The real type underlying a float or complex element type.
Type realElementOf(Type elem) {
  if (auto c = llvm::dyn_cast<ComplexType>(elem))
    return c.getElementType();
  return elem;
}

bool isComplex(Value v) { return llvm::isa<ComplexType>(tensorOf(v).getElementType()); }

/// `x` on its diagonal, zero elsewhere.
Value diagonalPart(MlaxBuilder &m, Value x) {
  return m.where(x, [](int64_t i, int64_t j) { return i == j; });
}

/// f32, f64, complex<f32>, complex<f64>: the types LAPACK has kernels for.
bool isLapackType(Type elem) {
  Type real = realElementOf(elem);
  return real.isF32() || real.isF64();
}

/// Operand `v` of a linalg op's shape rule: a statically shaped tensor of
/// matrices (rank >= 2; with `square`, square ones) of a LAPACK type.
FailureOr<RankedTensorType> matrixOperand(std::optional<Location> loc, StringRef opName, Value v,
                                          StringRef what, bool square) {
  auto t = llvm::dyn_cast<RankedTensorType>(v.getType());
  if (!t || !t.hasStaticShape())
    return emitOptionalError(loc, "'", opName, "' op ", what,
                             " must be a statically shaped tensor, got ", v.getType());
  if (!isLapackType(t.getElementType()))
    return emitOptionalError(loc, "'", opName, "' op supports f32, f64, complex<f32> and "
                             "complex<f64> matrices, got ", t.getElementType());
  if (t.getRank() < 2)
    return emitOptionalError(loc, "'", opName, "' op needs an array of at least 2 dimensions "
                             "(shape [..., m, n]) as ", what, ", got ", t);
  if (square && t.getDimSize(t.getRank() - 1) != t.getDimSize(t.getRank() - 2))
    return emitOptionalError(loc, "'", opName, "' op needs square matrices (shape [..., n, n]) as ",
                             what, ", got ", t);
  return t;
}

SmallVector<int64_t> withMatrix(ArrayRef<int64_t> batch, ArrayRef<int64_t> tail) {
  SmallVector<int64_t> s(batch);
  s.append(tail.begin(), tail.end());
  return s;
}

RankedTensorType tensorType(ArrayRef<int64_t> batch, ArrayRef<int64_t> tail, Type elem) {
  return RankedTensorType::get(withMatrix(batch, tail), elem);
}

/// The verifier of an op whose results its shape rule gives: a stated
/// result type that differs from the rule's is named (`what[i]` says
/// "<name> must be" for result i).
template <typename OpTy>
LogicalResult verifyResults(OpTy op, ArrayRef<StringRef> what) {
  SmallVector<Type> inferred;
  if (failed(OpTy::inferReturnTypes(op->getContext(), op->getLoc(), typename OpTy::Adaptor(op),
                                    inferred)))
    return failure();
  for (auto [phrase, want, got] : llvm::zip(what, inferred, op->getResultTypes()))
    if (want != got)
      return op.emitOpError() << phrase << " " << want << ", got " << got;
  return success();
}

/// Re-creates a one-operand op batched: the batch dimension is already in
/// front, so only the result types change.
template <typename OpTy, typename... Attrs>
LogicalResult batchUnary(OpTy op, OpBuilder &b, ValueRange operands, int64_t batchSize,
                         SmallVectorImpl<Value> &results, Attrs... attrs) {
  SmallVector<Type> types;
  for (Value r : op->getResults())
    types.push_back(vec::batchedType(r.getType(), batchSize));
  auto batched = OpTy::create(b, op.getLoc(), types, operands[0], attrs...);
  llvm::append_range(results, batched->getResults());
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// cholesky: L = chol((a + a^H) / 2)
//===----------------------------------------------------------------------===//

LogicalResult CholeskyOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                           Adaptor adaptor, SmallVectorImpl<Type> &results) {
  auto t = llvm::dyn_cast<RankedTensorType>(adaptor.getOperand().getType());
  if (!t || !t.hasStaticShape())
    return notTensors(loc, getOperationName());
  if (t.getRank() < 2 || t.getDimSize(t.getRank() - 1) != t.getDimSize(t.getRank() - 2))
    return emitOptionalError(loc, "'mlax.cholesky' op needs square matrices (shape [..., n, n]), "
                             "got ", t);
  if (!isLapackType(t.getElementType()))
    return emitOptionalError(loc, "'mlax.cholesky' op supports f32, f64, complex<f32> and "
                             "complex<f64> matrices, got ", t.getElementType());
  results.push_back(t);
  return success();
}

namespace {
/// jax's `phi`: the lower triangle with the diagonal halved.
Value choleskyPhi(MlaxBuilder &m, Value x) {
  Value low = m.tril(x);
  auto t = tensorOf(x);
  Value halves = SelectNOp::create(m.b, m.loc,
                                   m.mask(t, [](int64_t i, int64_t j) { return i == j; }),
                                   ValueRange{m.splat(t, 1.0), m.splat(t, 0.5)});
  return m.mul(low, halves);
}
/// (x + x^H) / 2; its transpose (JAX's convention) is itself.
Value symmetrize(MlaxBuilder &m, Value x) { return m.scale(m.add(x, m.mH(x)), 0.5); }
} // namespace

LogicalResult CholeskyOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                              SmallVectorImpl<Value> &resultTangents) {
  if (!tangents[0]) {
    resultTangents.push_back({});
    return success();
  }
  // dL = L phi(L^-1 sym(dA) L^-H)
  MlaxBuilder m(b, *this);
  Value l = getResult();
  Value y = m.solve(l, symmetrize(m, tangents[0]), true, true, false, TransposeKind::None);
  Value x = m.solve(l, y, false, true, false,
                    isComplex(l) ? TransposeKind::Adjoint : TransposeKind::Transpose);
  resultTangents.push_back(m.matmul(l, choleskyPhi(m, x)));
  return success();
}

LogicalResult CholeskyOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                              SmallVectorImpl<Value> &operandCotangents) {
  if (!cotangents[0]) {
    operandCotangents.push_back({});
    return success();
  }
  // The transpose of the forward rule: sym(L^-T phi(L^T Lbar) conj(L)^-1);
  // the right solve with L^-H transposes to one with conj(L), solved as
  // conj(conj(.) L^-1).
  MlaxBuilder m(b, *this);
  Value l = getResult();
  Value phi = choleskyPhi(m, m.matmul(m.mT(l), cotangents[0]));
  Value w = m.solve(l, phi, true, true, false, TransposeKind::Transpose);
  w = m.conj(m.solve(l, m.conj(w), false, true, false, TransposeKind::None));
  operandCotangents.push_back(symmetrize(m, w));
  return success();
}

LogicalResult CholeskyOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>,
                                int64_t batchSize, SmallVectorImpl<Value> &results) {
  results.push_back(CholeskyOp::create(b, getLoc(), operands[0].getType(), operands[0]));
  return success();
}

//===----------------------------------------------------------------------===//
// triangular_solve
//===----------------------------------------------------------------------===//

LogicalResult TriangularSolveOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                                  Adaptor adaptor,
                                                  SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  auto a = matrixOperand(loc, name, adaptor.getA(), "a", true);
  if (failed(a))
    return failure();
  auto rhs = matrixOperand(loc, name, adaptor.getB(), "b", false);
  if (failed(rhs))
    return failure();
  if (a->getElementType() != rhs->getElementType())
    return emitOptionalError(loc, "'", name, "' op needs a and b of one element type, got ",
                             a->getElementType(), " and ", rhs->getElementType());
  if (a->getRank() != rhs->getRank() ||
      a->getShape().drop_back(2) != rhs->getShape().drop_back(2))
    return emitOptionalError(loc, "'", name, "' op needs a and b with equal batch dimensions, "
                             "got ", *a, " and ", *rhs);
  int64_t m = a->getDimSize(a->getRank() - 1);
  int64_t r = rhs->getRank();
  bool left = adaptor.getLeftSide();
  int64_t along = left ? rhs->getDimSize(r - 2) : rhs->getDimSize(r - 1);
  if (along != m)
    return emitOptionalError(loc, "'", name, "' op b of shape ", shapeStr(rhs->getShape()),
                             " does not fit a of shape ", shapeStr(a->getShape()), " on the ",
                             left ? "left (b's rows" : "right (b's columns", " must number ", m,
                             ")");
  results.push_back(*rhs);
  return success();
}

LogicalResult TriangularSolveOp::verify() {
  return verifyResults(*this, {"result type must be b's type"});
}

namespace {
/// `a` as the solve reads it: its triangle, without the diagonal when that
/// is taken to be ones.
Value solveTriangle(MlaxBuilder &m, Value a, bool lower, bool unitDiagonal) {
  if (lower)
    return m.tril(a, unitDiagonal ? -1 : 0);
  return m.triu(a, unitDiagonal ? 1 : 0);
}
/// op(x) for the solve's `kind`.
Value applyKind(MlaxBuilder &m, Value x, TransposeKind kind) {
  if (kind == TransposeKind::Transpose)
    return m.mT(x);
  return kind == TransposeKind::Adjoint ? m.mH(x) : x;
}
/// The transpose of `g -> op(a)^-1 g` applied to `ct`: a solve with op(a)^T,
/// which for the adjoint is conj(a), solved as conj(a^-1 conj(ct)).
Value transposedSolve(MlaxBuilder &m, Value a, Value ct, bool left, bool lower, bool unit,
                      TransposeKind kind) {
  if (kind == TransposeKind::None)
    return m.solve(a, ct, left, lower, unit, TransposeKind::Transpose);
  if (kind == TransposeKind::Transpose)
    return m.solve(a, ct, left, lower, unit, TransposeKind::None);
  return m.conj(m.solve(a, m.conj(ct), left, lower, unit, TransposeKind::None));
}
} // namespace

LogicalResult TriangularSolveOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                                     SmallVectorImpl<Value> &resultTangents) {
  Value da = tangents[0], db = tangents[1];
  if (!da && !db) {
    resultTangents.push_back({});
    return success();
  }
  // op(A) dX = dB - op(dA) X (left), dX op(A) = dB - X op(dA) (right).
  MlaxBuilder m(b, *this);
  bool left = getLeftSide(), lower = getLower(), unit = getUnitDiagonal();
  TransposeKind kind = getTransposeA();
  Value rhs = db;
  if (da) {
    Value opDa = applyKind(m, solveTriangle(m, da, lower, unit), kind);
    Value x = getResult();
    rhs = m.sub(rhs, left ? m.matmul(opDa, x) : m.matmul(x, opDa));
  }
  resultTangents.push_back(m.solve(getA(), rhs, left, lower, unit, kind));
  return success();
}

LogicalResult TriangularSolveOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                                     SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  if (!ct) {
    operandCotangents.append(2, Value());
    return success();
  }
  MlaxBuilder m(b, *this);
  bool left = getLeftSide(), lower = getLower(), unit = getUnitDiagonal();
  TransposeKind kind = getTransposeA();
  Value bbar = transposedSolve(m, getA(), ct, left, lower, unit, kind);
  Value x = getResult();
  // The cotangent of op(dA): -Bbar X^T (left) or -X^T Bbar (right); op's
  // transpose (transpose or conjugate transpose) takes it to dA's.
  Value opBar = left ? m.matmul(bbar, m.mT(x)) : m.matmul(m.mT(x), bbar);
  opBar = applyKind(m, opBar, kind);
  operandCotangents.push_back(m.neg(solveTriangle(m, opBar, lower, unit)));
  operandCotangents.push_back(bbar);
  return success();
}

LogicalResult TriangularSolveOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool> batched,
                                       int64_t batchSize, SmallVectorImpl<Value> &results) {
  Location loc = getLoc();
  Value a = batched[0] ? operands[0] : vec::broadcastToBatch(b, loc, operands[0], batchSize);
  Value rhs = batched[1] ? operands[1] : vec::broadcastToBatch(b, loc, operands[1], batchSize);
  results.push_back(TriangularSolveOp::create(b, loc, rhs.getType(), a, rhs, getLeftSide(),
                                              getLower(), getUnitDiagonal(), getTransposeA()));
  return success();
}

//===----------------------------------------------------------------------===//
// eigh
//===----------------------------------------------------------------------===//

LogicalResult EighOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                       Adaptor adaptor, SmallVectorImpl<Type> &results) {
  auto a = matrixOperand(loc, getOperationName(), adaptor.getOperand(), "operand", true);
  if (failed(a))
    return failure();
  results.push_back(*a);
  results.push_back(RankedTensorType::get(a->getShape().drop_back(),
                                          realElementOf(a->getElementType())));
  return success();
}

LogicalResult EighOp::verify() {
  return verifyResults(*this, {"eigenvectors type must be", "eigenvalues type must be"});
}

namespace {
/// The symmetric (Hermitian) matrix the op sees in `t`: the triangle it
/// reads, mirrored (conjugated), with the real part of the diagonal (the
/// imaginary part is ignored, as LAPACK's heevd does).
Value eighView(MlaxBuilder &m, Value t, bool lower) {
  Value strict = lower ? m.tril(t, -1) : m.triu(t, 1);
  return m.add(m.add(strict, m.mH(strict)), m.realPart(diagonalPart(m, t)));
}
/// The transpose of `eighView`.
Value eighViewTranspose(MlaxBuilder &m, Value g, bool lower) {
  Value strict = lower ? m.add(m.tril(g, -1), m.tril(m.mH(g), -1))
                       : m.add(m.triu(g, 1), m.triu(m.mH(g), 1));
  return m.add(strict, m.realPart(diagonalPart(m, g)));
}
/// jax's `Fmat`: 1 / (w_j - w_i) off the diagonal, 0 on it, in `like`'s
/// (the eigenvectors') element type.
Value eighF(MlaxBuilder &m, Value w, RankedTensorType like) {
  Value eye = m.eye(like);
  w = m.convert(w, like.getElementType());
  Value diff = m.sub(m.spread(w, like, false), m.spread(w, like, true));
  Value one = m.splat(like, 1.0);
  return m.sub(m.div(one, m.add(eye, diff)), eye);
}
} // namespace

LogicalResult EighOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                          SmallVectorImpl<Value> &resultTangents) {
  if (!tangents[0]) {
    resultTangents.append(2, Value());
    return success();
  }
  // M = V^H dA V; dw = re(diag(M)); dV = V (F * M).
  MlaxBuilder m(b, *this);
  Value v = getVectors(), w = getValues();
  Value da = eighView(m, tangents[0], getLower());
  Value mm = m.matmul(m.mH(v), m.matmul(da, v));
  Value f = eighF(m, w, tensorOf(v));
  resultTangents.push_back(m.matmul(v, m.mul(f, mm)));
  resultTangents.push_back(m.real(m.diag(mm)));
  return success();
}

LogicalResult EighOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                          SmallVectorImpl<Value> &operandCotangents) {
  Value vbar = cotangents[0], wbar = cotangents[1];
  if (!vbar && !wbar) {
    operandCotangents.push_back({});
    return success();
  }
  // Mbar = diag(wbar) + F * (V^T Vbar); dA-bar = view^T(conj(V) Mbar V^T).
  MlaxBuilder m(b, *this);
  Value v = getVectors();
  Value mbar;
  if (wbar)
    mbar = m.diagEmbed(m.convert(wbar, tensorOf(v).getElementType()));
  if (vbar)
    mbar = m.add(mbar, m.mul(eighF(m, getValues(), tensorOf(v)), m.matmul(m.mT(v), vbar)));
  Value g = m.matmul(m.conj(v), m.matmul(mbar, m.mT(v)));
  operandCotangents.push_back(eighViewTranspose(m, g, getLower()));
  return success();
}

LogicalResult EighOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>,
                            int64_t batchSize, SmallVectorImpl<Value> &results) {
  return batchUnary(*this, b, operands, batchSize, results, getLower());
}

//===----------------------------------------------------------------------===//
// eig: a vr = vr diag(w), vl^H a = diag(w) vl^H (geev)
//===----------------------------------------------------------------------===//

LogicalResult EigOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                      Adaptor adaptor, SmallVectorImpl<Type> &results) {
  auto a = matrixOperand(loc, getOperationName(), adaptor.getOperand(), "operand", true);
  if (failed(a))
    return failure();
  auto complex = ComplexType::get(realElementOf(a->getElementType()));
  auto vectors = RankedTensorType::get(a->getShape(), complex);
  results.push_back(RankedTensorType::get(a->getShape().drop_back(), complex));
  results.append(2, vectors);
  return success();
}

LogicalResult EigOp::verify() {
  return verifyResults(*this, {"eigenvalues type must be", "left eigenvectors type must be",
                               "right eigenvectors type must be"});
}

LogicalResult EigOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>,
                           int64_t batchSize, SmallVectorImpl<Value> &results) {
  return batchUnary(*this, b, operands, batchSize, results, getComputeLeft(),
                    getComputeRight());
}

//===----------------------------------------------------------------------===//
// qr
//===----------------------------------------------------------------------===//

LogicalResult QrOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                     Adaptor adaptor, SmallVectorImpl<Type> &results) {
  auto a = matrixOperand(loc, getOperationName(), adaptor.getOperand(), "operand", false);
  if (failed(a))
    return failure();
  int64_t r = a->getRank(), rows = a->getDimSize(r - 2), cols = a->getDimSize(r - 1);
  int64_t k = adaptor.getFullMatrices() ? rows : std::min(rows, cols);
  auto batch = a->getShape().drop_back(2);
  results.push_back(tensorType(batch, {rows, k}, a->getElementType()));
  results.push_back(tensorType(batch, {k, cols}, a->getElementType()));
  return success();
}

LogicalResult QrOp::verify() { return verifyResults(*this, {"q type must be", "r type must be"}); }

namespace {
/// `x - re(x)` on the diagonal, zero elsewhere: the term JAX's QR rule adds
/// for complex matrices (none for real ones).
Value imaginaryDiagonal(MlaxBuilder &m, Value x) {
  if (!isComplex(x))
    return Value();
  Value d = diagonalPart(m, x);
  return m.sub(d, m.realPart(d));
}
/// jax's `_thin_qr_jvp` for square-or-tall Q (m x n) and R (n x n).
std::pair<Value, Value> thinQrJvp(MlaxBuilder &m, Value q, Value r, Value dx) {
  Value y = m.solve(r, dx, false, false, false, TransposeKind::None); // dX R^-1
  Value c = m.matmul(m.mH(q), y);
  Value low = m.tril(c, -1);
  Value omega = m.add(m.sub(low, m.mH(low)), imaginaryDiagonal(m, c));
  Value dq = m.add(m.matmul(q, m.sub(omega, c)), y);
  Value dr = m.matmul(m.sub(c, omega), r);
  return {dq, dr};
}
/// The transpose of `thinQrJvp`: the cotangent of dX.
Value thinQrVjp(MlaxBuilder &m, Value q, Value r, Value qbar, Value rbar) {
  Value omegaBar;
  if (qbar)
    omegaBar = m.matmul(m.mT(q), qbar);
  if (rbar)
    omegaBar = m.sub(omegaBar, m.matmul(rbar, m.mT(r)));
  Value cbar = m.add(m.neg(omegaBar), m.tril(m.sub(omegaBar, m.mH(omegaBar)), -1));
  cbar = m.add(cbar, imaginaryDiagonal(m, omegaBar));
  Value ybar = m.add(qbar, m.matmul(m.conj(q), cbar));
  return m.solve(r, ybar, false, false, false, TransposeKind::Transpose); // Ybar R^-T
}

std::pair<Value, Value> luFactors(MlaxBuilder &m, Value lu);
Value permutationMatrix(MlaxBuilder &m, Value permutation, Type elem);

/// Rows `[r0, r1)` of every matrix, all its columns.
Value rowsOf(MlaxBuilder &m, Value x, int64_t r0, int64_t r1) {
  auto t = tensorOf(x);
  return m.slice(x, r0, r1, 0, t.getDimSize(t.getRank() - 1));
}
Value concatRows(MlaxBuilder &m, Value x, Value y) {
  return m.mT(m.concatCols(m.mT(x), m.mT(y)));
}

/// The full-matrices QR of a tall `rows x cols` matrix (jax's rule, after
/// arXiv:2409.13374): Q = [Q_mn Q_mp] and, with Q_mn = [Q_nn; Q_pn],
/// Z = Q_pn (Q_nn - I)^-1 (eq. 33), solved through the LU factors of
/// Q_nn - I: P A = L U makes Z A = Q_pn into (Z P^T) L U = Q_pn.
struct FullQr {
  Value qmn, qmp, rnn, z;
};
FullQr fullQr(MlaxBuilder &m, Value q, Value r, int64_t rows, int64_t cols) {
  FullQr f;
  f.qmn = m.slice(q, 0, rows, 0, cols);
  f.qmp = m.slice(q, 0, rows, cols, rows);
  f.rnn = m.slice(r, 0, cols, 0, cols);
  Value qnn = rowsOf(m, f.qmn, 0, cols), qpn = rowsOf(m, f.qmn, cols, rows);
  Value a = m.sub(qnn, m.eye(tensorOf(qnn)));
  auto lu = LuOp::create(m.b, m.loc, a);
  auto [l, u] = luFactors(m, lu.getLu());
  Value w = m.solve(u, qpn, false, false, false, TransposeKind::None);
  w = m.solve(l, w, false, true, true, TransposeKind::None);
  f.z = m.matmul(w, permutationMatrix(m, lu.getPermutation(), tensorOf(a).getElementType()));
  return f;
}
} // namespace

LogicalResult QrOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                        SmallVectorImpl<Value> &resultTangents) {
  Value dx = tangents[0];
  if (!dx) {
    resultTangents.append(2, Value());
    return success();
  }
  MlaxBuilder m(b, *this);
  Value q = getQ(), r = getR();
  auto t = tensorOf(getOperand());
  int64_t rows = t.getDimSize(t.getRank() - 2), cols = t.getDimSize(t.getRank() - 1);
  if (getFullMatrices() && rows > cols) {
    // dQ_mp = dQ_mn Z^H - (Q_mn + Q_mp Z) (dQ_pn - Z dQ_nn)^H (eq. 32); R's
    // zero rows stay zero.
    FullQr f = fullQr(m, q, r, rows, cols);
    auto [dqmn, drnn] = thinQrJvp(m, f.qmn, f.rnn, dx);
    Value e = m.sub(rowsOf(m, dqmn, cols, rows), m.matmul(f.z, rowsOf(m, dqmn, 0, cols)));
    Value dqmp = m.sub(m.matmul(dqmn, m.mH(f.z)),
                       m.matmul(m.add(f.qmn, m.matmul(f.qmp, f.z)), m.mH(e)));
    Value zeros = m.zeros(tensorType(t.getShape().drop_back(2), {rows - cols, cols},
                                     t.getElementType()));
    resultTangents.append({m.concatCols(dqmn, dqmp), concatRows(m, drnn, zeros)});
    return success();
  }
  if (rows >= cols) {
    auto [dq, dr] = thinQrJvp(m, q, r, dx);
    resultTangents.append({dq, dr});
    return success();
  }
  // Wide: X = [X1 X2], R = [R1 R2]; X1 = Q R1 is square and R2 = Q^H X2.
  Value x2 = m.slice(getOperand(), 0, rows, rows, cols);
  auto [dq, dr1] = thinQrJvp(m, q, m.slice(r, 0, rows, 0, rows), m.slice(dx, 0, rows, 0, rows));
  Value dr2 = m.add(m.matmul(m.mH(dq), x2), m.matmul(m.mH(q), m.slice(dx, 0, rows, rows, cols)));
  resultTangents.append({dq, m.concatCols(dr1, dr2)});
  return success();
}

LogicalResult QrOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                        SmallVectorImpl<Value> &operandCotangents) {
  Value qbar = cotangents[0], rbar = cotangents[1];
  if (!qbar && !rbar) {
    operandCotangents.push_back({});
    return success();
  }
  MlaxBuilder m(b, *this);
  Value q = getQ(), r = getR();
  auto t = tensorOf(getOperand());
  int64_t rows = t.getDimSize(t.getRank() - 2), cols = t.getDimSize(t.getRank() - 1);
  if (getFullMatrices() && rows > cols) {
    // The transpose of the forward rule's dQ_mp = dQ_mn Z^H - W E^H, with
    // W = Q_mn + Q_mp Z and E = dQ_pn - Z dQ_nn: Qbar_mp sends
    // Qbar_mp conj(Z) to dQ_mn and Ebar = -Qbar_mp^H conj(W) to E, which
    // sends Ebar to dQ_pn and -Z^T Ebar to dQ_nn. R's zero rows take none.
    FullQr f = fullQr(m, q, r, rows, cols);
    Value qbarMn, rbarNn;
    if (qbar) {
      Value qbarMp = m.slice(qbar, 0, rows, cols, rows);
      Value w = m.add(f.qmn, m.matmul(f.qmp, f.z));
      Value ebar = m.neg(m.matmul(m.mH(qbarMp), m.conj(w)));
      qbarMn = m.add(m.add(m.slice(qbar, 0, rows, 0, cols), m.matmul(qbarMp, m.conj(f.z))),
                     concatRows(m, m.neg(m.matmul(m.mT(f.z), ebar)), ebar));
    }
    if (rbar)
      rbarNn = m.slice(rbar, 0, cols, 0, cols);
    operandCotangents.push_back(thinQrVjp(m, f.qmn, f.rnn, qbarMn, rbarNn));
    return success();
  }
  if (rows >= cols) {
    operandCotangents.push_back(thinQrVjp(m, q, r, qbar, rbar));
    return success();
  }
  // Wide: dR2 = dQ^H X2 + Q^H dX2 sends conj(X2) R2bar^H to Qbar and
  // conj(Q) R2bar to dX2.
  Value rbar1, x2bar;
  if (rbar) {
    rbar1 = m.slice(rbar, 0, rows, 0, rows);
    Value rbar2 = m.slice(rbar, 0, rows, rows, cols);
    qbar = m.add(qbar,
                 m.matmul(m.conj(m.slice(getOperand(), 0, rows, rows, cols)), m.mH(rbar2)));
    x2bar = m.matmul(m.conj(q), rbar2);
  } else {
    auto x2Type = RankedTensorType::get(
        withMatrix(t.getShape().drop_back(2), {rows, cols - rows}), t.getElementType());
    x2bar = m.splat(x2Type, 0.0);
  }
  Value x1bar = thinQrVjp(m, q, m.slice(r, 0, rows, 0, rows), qbar, rbar1);
  operandCotangents.push_back(m.concatCols(x1bar, x2bar));
  return success();
}

LogicalResult QrOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>, int64_t batchSize,
                          SmallVectorImpl<Value> &results) {
  return batchUnary(*this, b, operands, batchSize, results, getFullMatrices());
}

//===----------------------------------------------------------------------===//
// svd
//===----------------------------------------------------------------------===//

LogicalResult SvdOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                      Adaptor adaptor, SmallVectorImpl<Type> &results) {
  auto a = matrixOperand(loc, getOperationName(), adaptor.getOperand(), "operand", false);
  if (failed(a))
    return failure();
  int64_t r = a->getRank(), rows = a->getDimSize(r - 2), cols = a->getDimSize(r - 1);
  int64_t k = std::min(rows, cols);
  bool full = adaptor.getFullMatrices();
  auto batch = a->getShape().drop_back(2);
  Type elem = a->getElementType();
  results.push_back(tensorType(batch, {k}, realElementOf(elem)));
  results.push_back(tensorType(batch, {rows, full ? rows : k}, elem));
  results.push_back(tensorType(batch, {full ? cols : k, cols}, elem));
  return success();
}

LogicalResult SvdOp::verify() {
  return verifyResults(*this, {"s type must be", "u type must be", "vt type must be"});
}

namespace {
/// U and V^T cut to the k singular vectors that pair with s.
std::pair<Value, Value> thinVectors(MlaxBuilder &m, SvdOp op) {
  auto t = tensorOf(op.getOperand());
  int64_t rows = t.getDimSize(t.getRank() - 2), cols = t.getDimSize(t.getRank() - 1);
  int64_t k = std::min(rows, cols);
  return {m.slice(op.getU(), 0, rows, 0, k), m.slice(op.getVt(), 0, k, 0, cols)};
}

/// What svd's forward and reverse rules share: s in the matrices' element
/// type spread down the rows (`sRow[i, j] = s_j`) and across the columns
/// (`sCol[i, j] = s_i`) of a k x k matrix, jax's `F` (1 / (s_j^2 - s_i^2)
/// off the diagonal, 0 on it) and, for complex matrices, 1/s on the
/// diagonal (0 where s is 0).
struct SvdTerms {
  Value s, sRow, sCol, f, sInvDiag;
};
SvdTerms svdTerms(MlaxBuilder &m, Value sReal, RankedTensorType kk) {
  SvdTerms t;
  t.s = m.convert(sReal, kk.getElementType());
  t.sRow = m.spread(t.s, kk, false);
  t.sCol = m.spread(t.s, kk, true);
  Value eye = m.eye(kk);
  Value diffs = m.mul(m.add(t.sRow, t.sCol), m.sub(t.sRow, t.sCol));
  t.f = m.sub(m.div(m.splat(kk, 1.0), m.add(diffs, eye)), eye);
  if (!llvm::isa<ComplexType>(kk.getElementType()))
    return t;
  Value sReals = m.spread(sReal, kk, false);
  Value zero = m.eq(sReals, m.like(sReals, 0.0)), one = m.like(sReals, 1.0);
  Value inv = m.div(one, m.select(zero, one, sReals));
  inv = m.select(zero, m.like(sReals, 0.0), inv);
  t.sInvDiag = diagonalPart(m, m.convert(inv, kk.getElementType()));
  return t;
}

/// `x` `[..., r, k]` with column j divided by s_j.
Value divideColumns(MlaxBuilder &m, Value x, Value s) {
  return m.div(x, m.spread(s, tensorOf(x), false));
}

LogicalResult svdVectorsSupported(SvdOp op, StringRef mode) {
  auto t = tensorOf(op.getOperand());
  int64_t rows = t.getDimSize(t.getRank() - 2), cols = t.getDimSize(t.getRank() - 1);
  if (op.getFullMatrices() && rows != cols)
    return op.emitOpError() << mode << " derivative with full_matrices of a non-square " << rows
                            << "x" << cols
                            << " matrix is not implemented (as in JAX; use full_matrices = false)";
  return success();
}
} // namespace

LogicalResult SvdOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                         SmallVectorImpl<Value> &resultTangents) {
  Value da = tangents[0];
  if (!da) {
    resultTangents.append(3, Value());
    return success();
  }
  if (failed(svdVectorsSupported(*this, "forward-mode")))
    return failure();
  // jax's _svd_jvp_rule: dS = U^H dA V, ds = re(diag(dS)),
  // dU = U (F * (dS S + (dS S)^H) + D) [+ (I - U U^H) dA V S^-1],
  // dV = V (F * (S dS + (S dS)^H)) [+ (I - V V^H) dA^H U S^-1],
  // D = (dS - dS^H) / 2 on the diagonal, divided by s (zero for real
  // matrices).
  MlaxBuilder m(b, *this);
  Value u = getU(), vt = getVt();
  Value v = m.mH(vt);
  Value ds = m.matmul(m.mH(u), m.matmul(da, v));
  SvdTerms st = svdTerms(m, getS(), tensorOf(ds));
  Value dss = m.mul(st.sRow, ds), sds = m.mul(st.sCol, ds);
  Value inner = m.mul(st.f, m.add(dss, m.mH(dss)));
  if (isComplex(ds))
    inner = m.add(inner, m.mul(m.scale(m.sub(ds, m.mH(ds)), 0.5), st.sInvDiag));
  Value du = m.matmul(u, inner);
  Value dv = m.matmul(v, m.mul(st.f, m.add(sds, m.mH(sds))));
  auto t = tensorOf(getOperand());
  int64_t rows = t.getDimSize(t.getRank() - 2), cols = t.getDimSize(t.getRank() - 1);
  if (rows > cols) {
    Value dav = m.matmul(da, v);
    du = m.add(du, divideColumns(m, m.sub(dav, m.matmul(u, m.matmul(m.mH(u), dav))), st.s));
  } else if (cols > rows) {
    Value dahu = m.matmul(m.mH(da), u);
    dv = m.add(dv, divideColumns(m, m.sub(dahu, m.matmul(v, m.matmul(vt, dahu))), st.s));
  }
  resultTangents.push_back(m.real(m.diag(ds)));
  resultTangents.push_back(du);
  resultTangents.push_back(m.mH(dv));
  return success();
}

LogicalResult SvdOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                         SmallVectorImpl<Value> &operandCotangents) {
  Value sbar = cotangents[0], ubar = cotangents[1], vtbar = cotangents[2];
  if (!sbar && !ubar && !vtbar) {
    operandCotangents.push_back({});
    return success();
  }
  // The singular values alone need no more than the thin vectors, also of
  // a full_matrices decomposition of a non-square matrix.
  MlaxBuilder m(b, *this);
  auto [u, vt] = thinVectors(m, *this);
  if (!ubar && !vtbar) { // Abar = conj(U) diag(sbar) V^T
    Value scaled = m.mul(m.conj(u), m.spread(m.convert(sbar, tensorOf(u).getElementType()),
                                             tensorOf(u), false));
    operandCotangents.push_back(m.matmul(scaled, m.conj(vt)));
    return success();
  }
  if (failed(svdVectorsSupported(*this, "reverse-mode")))
    return failure();
  // The transpose of the forward rule, step by step: with dS-bar the
  // cotangent of dS, Abar = conj(U) dSbar V^T plus the projections' terms.
  Type elem = tensorOf(u).getElementType();
  auto t = tensorOf(getOperand());
  int64_t nbat = t.getRank() - 2;
  int64_t rows = t.getDimSize(nbat), cols = t.getDimSize(nbat + 1), k = std::min(rows, cols);
  auto kk = RankedTensorType::get(withMatrix(t.getShape().drop_back(2), {k, k}), elem);
  SvdTerms st = svdTerms(m, getS(), kk);
  Value vT = m.conj(vt); // V^T
  Value dsBar;
  if (sbar) // ds = re(diag(dS))
    dsBar = m.diagEmbed(m.convert(sbar, elem));
  Value abar;
  if (ubar) {
    // dU = U W: Wbar = U^T Ubar; W = F * (dS S + (dS S)^H) + D.
    Value wbar = m.matmul(m.mT(u), ubar);
    Value q = m.mul(st.f, wbar);
    dsBar = m.add(dsBar, m.mul(m.add(q, m.mH(q)), st.sRow));
    if (isComplex(u)) {
      Value d = m.mul(m.scale(wbar, 0.5), st.sInvDiag);
      dsBar = m.add(dsBar, m.sub(d, m.mH(d)));
    }
    if (rows > cols) { // (I - U U^H) dA V S^-1
      Value r = divideColumns(m, ubar, st.s);
      abar = m.matmul(m.sub(r, m.matmul(m.conj(u), m.matmul(m.mT(u), r))), vT);
    }
  }
  if (vtbar) {
    // dV = V Y: Ybar = V^T Vbar with Vbar = Vtbar^H; Y = F * (S dS + (S dS)^H).
    Value vbar = m.mH(vtbar);
    Value z = m.mul(st.f, m.matmul(vT, vbar));
    dsBar = m.add(dsBar, m.mul(st.sCol, m.add(z, m.mH(z))));
    if (cols > rows) { // (I - V V^H) dA^H U S^-1
      Value rh = m.mH(divideColumns(m, vbar, st.s));
      Value projected = m.matmul(m.matmul(rh, m.mT(vt)), vT);
      abar = m.add(abar, m.matmul(m.conj(u), m.sub(rh, projected)));
    }
  }
  // dS = U^H dA V.
  abar = m.add(abar, m.matmul(m.conj(u), m.matmul(dsBar, vT)));
  operandCotangents.push_back(abar);
  return success();
}

LogicalResult SvdOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>, int64_t batchSize,
                           SmallVectorImpl<Value> &results) {
  return batchUnary(*this, b, operands, batchSize, results, getFullMatrices());
}

//===----------------------------------------------------------------------===//
// geqrf
//===----------------------------------------------------------------------===//

LogicalResult GeqrfOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                        Adaptor adaptor, SmallVectorImpl<Type> &results) {
  auto a = matrixOperand(loc, getOperationName(), adaptor.getOperand(), "operand", false);
  if (failed(a))
    return failure();
  int64_t r = a->getRank(), k = std::min(a->getDimSize(r - 2), a->getDimSize(r - 1));
  results.push_back(*a);
  results.push_back(tensorType(a->getShape().drop_back(2), {k}, a->getElementType()));
  return success();
}

LogicalResult GeqrfOp::verify() {
  return verifyResults(*this, {"r type must be", "taus type must be"});
}

LogicalResult GeqrfOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>,
                             int64_t batchSize, SmallVectorImpl<Value> &results) {
  return batchUnary(*this, b, operands, batchSize, results);
}

//===----------------------------------------------------------------------===//
// geqp3: QR with column pivoting
//===----------------------------------------------------------------------===//

LogicalResult Geqp3Op::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                        Adaptor adaptor, SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  auto a = matrixOperand(loc, name, adaptor.getOperand(), "operand", false);
  if (failed(a))
    return failure();
  int64_t r = a->getRank(), cols = a->getDimSize(r - 1),
          k = std::min(a->getDimSize(r - 2), cols);
  auto jpvt = llvm::cast<RankedTensorType>(adaptor.getJpvt().getType());
  SmallVector<int64_t> want(a->getShape().drop_back(2));
  want.push_back(cols);
  if (jpvt.getShape() != ArrayRef<int64_t>(want))
    return emitOptionalError(loc, "'", name, "' op needs jpvt of shape [..., n] with the "
                             "operand's batch dimensions and columns, got ", jpvt, " for ", *a);
  results.push_back(*a);
  results.push_back(jpvt);
  results.push_back(tensorType(a->getShape().drop_back(2), {k}, a->getElementType()));
  return success();
}

LogicalResult Geqp3Op::verify() {
  return verifyResults(*this,
                       {"r type must be", "jpvt_out type must be", "taus type must be"});
}

LogicalResult Geqp3Op::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool> batched,
                             int64_t batchSize, SmallVectorImpl<Value> &results) {
  Location loc = getLoc();
  Value a = ensureBatched(b, loc, operands[0], batched[0], batchSize);
  Value jpvt = ensureBatched(b, loc, operands[1], batched[1], batchSize);
  auto op = Geqp3Op::create(b, loc, a, jpvt);
  results.append(op->result_begin(), op->result_end());
  return success();
}

//===----------------------------------------------------------------------===//
// lu: P a = L U (getrf)
//===----------------------------------------------------------------------===//

LogicalResult LuOp::inferReturnTypes(MLIRContext *context, std::optional<Location> loc,
                                     Adaptor adaptor, SmallVectorImpl<Type> &results) {
  auto a = matrixOperand(loc, getOperationName(), adaptor.getOperand(), "operand", false);
  if (failed(a))
    return failure();
  int64_t r = a->getRank(), rows = a->getDimSize(r - 2), cols = a->getDimSize(r - 1);
  auto batch = a->getShape().drop_back(2);
  auto i32 = IntegerType::get(context, 32);
  results.push_back(*a);
  results.push_back(tensorType(batch, {std::min(rows, cols)}, i32));
  results.push_back(tensorType(batch, {rows}, i32));
  return success();
}

LogicalResult LuOp::verify() {
  return verifyResults(*this, {"lu type must be", "pivots type must be",
                               "permutation type must be"});
}

namespace {
/// The factors of `lu` `[..., m, n]` as square matrices (jax's
/// `_lu_jvp_inner`): L `[..., m, m]` (unit diagonal, identity beyond column
/// k) and U `[..., n, n]` (identity beyond row k), k = min(m, n).
std::pair<Value, Value> luFactors(MlaxBuilder &m, Value lu) {
  auto t = tensorOf(lu);
  int64_t nbat = t.getRank() - 2;
  int64_t rows = t.getDimSize(nbat), cols = t.getDimSize(nbat + 1), k = std::min(rows, cols);
  Value zero = m.splat(RankedTensorType::get({}, t.getElementType()), 0.0);
  auto padTo = [&](Value x, int64_t toRows, int64_t toCols) {
    auto xt = tensorOf(x);
    if (xt.getDimSize(nbat) == toRows && xt.getDimSize(nbat + 1) == toCols)
      return x;
    SmallVector<int64_t> low(t.getRank(), 0), high(t.getRank(), 0), interior(t.getRank(), 0);
    high[nbat] = toRows - xt.getDimSize(nbat);
    high[nbat + 1] = toCols - xt.getDimSize(nbat + 1);
    return Value(PadOp::create(m.b, m.loc, x, zero, low, high, interior));
  };
  Value l = padTo(m.tril(m.slice(lu, 0, rows, 0, k), -1), rows, rows);
  l = m.add(l, m.eye(tensorOf(l)));
  Value u = m.triu(padTo(m.slice(lu, 0, k, 0, cols), cols, cols));
  if (k < cols)
    u = m.add(u, m.where(m.eye(tensorOf(u)), [k](int64_t i, int64_t) { return i >= k; }));
  return {l, u};
}

/// The one-hot `[..., m, m]` matrix P of `permutation` (P[i, j] =
/// permutation[i] == j), so that `P x` takes x's rows in its order.
Value permutationMatrix(MlaxBuilder &m, Value permutation, Type elem) {
  auto pt = tensorOf(permutation);
  int64_t nbat = pt.getRank() - 1, rows = pt.getDimSize(nbat);
  auto square = RankedTensorType::get(withMatrix(pt.getShape().drop_back(), {rows, rows}),
                                      pt.getElementType());
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d <= nbat; ++d)
    dims.push_back(d);
  Value wanted = BroadcastInDimOp::create(m.b, m.loc, square, permutation, dims);
  Value cols = IotaOp::create(m.b, m.loc, square, m.b.getI64IntegerAttr(nbat + 1));
  Value hit = CompareOp::create(m.b, m.loc, ComparisonDirection::EQ, wanted, cols);
  auto like = square.clone(elem);
  return SelectNOp::create(m.b, m.loc, hit, ValueRange{m.splat(like, 0.0), m.splat(like, 1.0)});
}
} // namespace

LogicalResult LuOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                        SmallVectorImpl<Value> &resultTangents) {
  Value da = tangents[0];
  if (!da) {
    resultTangents.append(3, Value());
    return success();
  }
  // jax's _lu_jvp_rule (holomorphic: the same for complex matrices): with X = L^-1 P dA U^-1,
  // dLU = L tril(X, -1) + triu(X) U.
  MlaxBuilder m(b, *this);
  auto [l, u] = luFactors(m, getLu());
  Value pda = m.matmul(permutationMatrix(m, getPermutation(), tensorOf(da).getElementType()), da);
  Value x = m.solve(l, pda, true, true, true, TransposeKind::None);
  x = m.solve(u, x, false, false, false, TransposeKind::None);
  resultTangents.push_back(m.add(m.matmul(l, m.tril(x, -1)), m.matmul(m.triu(x), u)));
  resultTangents.append(2, Value());
  return success();
}

LogicalResult LuOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                        SmallVectorImpl<Value> &operandCotangents) {
  Value g = cotangents[0];
  if (!g) {
    operandCotangents.push_back({});
    return success();
  }
  // The transpose of the forward rule: Xbar = tril(L^T G, -1) + triu(G U^T),
  // dA-bar = P^T L^-T Xbar U^-T.
  MlaxBuilder m(b, *this);
  auto [l, u] = luFactors(m, getLu());
  Value xbar = m.add(m.tril(m.matmul(m.mT(l), g), -1), m.triu(m.matmul(g, m.mT(u))));
  xbar = m.solve(u, xbar, false, false, false, TransposeKind::Transpose);
  xbar = m.solve(l, xbar, true, true, true, TransposeKind::Transpose);
  Value p = permutationMatrix(m, getPermutation(), tensorOf(g).getElementType());
  operandCotangents.push_back(m.matmul(m.mT(p), xbar));
  return success();
}

LogicalResult LuOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>, int64_t batchSize,
                          SmallVectorImpl<Value> &results) {
  return batchUnary(*this, b, operands, batchSize, results);
}
//===----------------------------------------------------------------------===//
// schur: a = q t q^H (gees)
//===----------------------------------------------------------------------===//

LogicalResult SchurOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                        Adaptor adaptor, SmallVectorImpl<Type> &results) {
  auto a = matrixOperand(loc, getOperationName(), adaptor.getOperand(), "operand", true);
  if (failed(a))
    return failure();
  results.append(2, *a);
  return success();
}

LogicalResult SchurOp::verify() {
  return verifyResults(*this, {"Schur form type must be", "Schur vectors type must be"});
}

LogicalResult SchurOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>,
                             int64_t batchSize, SmallVectorImpl<Value> &results) {
  return batchUnary(*this, b, operands, batchSize, results, getComputeSchurVectors());
}

//===----------------------------------------------------------------------===//
// hessenberg (gehrd)
//===----------------------------------------------------------------------===//

LogicalResult HessenbergOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                             Adaptor adaptor, SmallVectorImpl<Type> &results) {
  auto a = matrixOperand(loc, getOperationName(), adaptor.getOperand(), "operand", true);
  if (failed(a))
    return failure();
  int64_t n = a->getDimSize(a->getRank() - 1);
  results.push_back(*a);
  results.push_back(tensorType(a->getShape().drop_back(2), {std::max<int64_t>(n - 1, 0)},
                               a->getElementType()));
  return success();
}

LogicalResult HessenbergOp::verify() {
  return verifyResults(*this, {"h type must be", "taus type must be"});
}

LogicalResult HessenbergOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>,
                                  int64_t batchSize, SmallVectorImpl<Value> &results) {
  return batchUnary(*this, b, operands, batchSize, results);
}

//===----------------------------------------------------------------------===//
// tridiagonal (sytrd / hetrd)
//===----------------------------------------------------------------------===//

LogicalResult TridiagonalOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                              Adaptor adaptor, SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  auto a = matrixOperand(loc, name, adaptor.getOperand(), "operand", true);
  if (failed(a))
    return failure();
  int64_t n = a->getDimSize(a->getRank() - 1);
  if (n == 0)
    return emitOptionalError(loc, "'", name, "' op needs square matrices of at least one row, "
                             "got ", *a);
  auto batch = a->getShape().drop_back(2);
  Type elem = a->getElementType(), real = realElementOf(elem);
  results.push_back(*a);
  results.push_back(tensorType(batch, {n}, real));
  results.push_back(tensorType(batch, {n - 1}, real));
  results.push_back(tensorType(batch, {n - 1}, elem));
  return success();
}

LogicalResult TridiagonalOp::verify() {
  return verifyResults(*this, {"r type must be", "d type must be", "e type must be",
                               "taus type must be"});
}

LogicalResult TridiagonalOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool>,
                                   int64_t batchSize, SmallVectorImpl<Value> &results) {
  return batchUnary(*this, b, operands, batchSize, results, getLower());
}

//===----------------------------------------------------------------------===//
// householder_product (orgqr / ungqr)
//===----------------------------------------------------------------------===//

LogicalResult HouseholderProductOp::inferReturnTypes(MLIRContext *,
                                                     std::optional<Location> loc,
                                                     Adaptor adaptor,
                                                     SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  auto a = matrixOperand(loc, name, adaptor.getA(), "a", false);
  if (failed(a))
    return failure();
  auto taus = llvm::dyn_cast<RankedTensorType>(adaptor.getTaus().getType());
  if (!taus || !taus.hasStaticShape() || taus.getElementType() != a->getElementType())
    return emitOptionalError(loc, "'", name, "' op needs taus: a statically shaped tensor of "
                             "a's element type, got ", adaptor.getTaus().getType());
  int64_t r = a->getRank(), rows = a->getDimSize(r - 2), cols = a->getDimSize(r - 1);
  if (rows < cols)
    return emitOptionalError(loc, "'", name, "' op needs a with at least as many rows as "
                             "columns, got ", *a);
  if (taus.getRank() != r - 1 || taus.getShape().drop_back() != a->getShape().drop_back(2))
    return emitOptionalError(loc, "'", name, "' op needs taus of shape [..., k] with a's "
                             "batch dimensions, got ", taus, " for ", *a);
  if (taus.getDimSize(r - 2) > cols)
    return emitOptionalError(loc, "'", name, "' op needs at most as many taus as a has "
                             "columns, got ", taus, " for ", *a);
  results.push_back(*a);
  return success();
}

LogicalResult HouseholderProductOp::verify() {
  return verifyResults(*this, {"result type must be a's type"});
}

LogicalResult HouseholderProductOp::batch(OpBuilder &b, ValueRange operands,
                                          ArrayRef<bool> batched, int64_t batchSize,
                                          SmallVectorImpl<Value> &results) {
  Location loc = getLoc();
  Value a = ensureBatched(b, loc, operands[0], batched[0], batchSize);
  Value taus = ensureBatched(b, loc, operands[1], batched[1], batchSize);
  results.push_back(HouseholderProductOp::create(b, loc, a.getType(), a, taus));
  return success();
}

//===----------------------------------------------------------------------===//
// tridiagonal_solve (gtsv)
//===----------------------------------------------------------------------===//

LogicalResult TridiagonalSolveOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                                   Adaptor adaptor,
                                                   SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  auto rhs = matrixOperand(loc, name, adaptor.getB(), "b", false);
  if (failed(rhs))
    return failure();
  ArrayRef<int64_t> want = rhs->getShape().drop_back();
  StringRef names[] = {"dl", "d", "du"};
  Value diagonals[] = {adaptor.getDl(), adaptor.getD(), adaptor.getDu()};
  for (auto [what, v] : llvm::zip(names, diagonals)) {
    auto t = llvm::dyn_cast<RankedTensorType>(v.getType());
    if (!t || !t.hasStaticShape() || t.getElementType() != rhs->getElementType())
      return emitOptionalError(loc, "'", name, "' op needs ", what, ": a statically shaped "
                               "tensor of b's element type, got ", v.getType());
    if (t.getShape() != want)
      return emitOptionalError(loc, "'", name, "' op needs diagonals of shape ",
                               shapeStr(want), " (b's shape without its last dimension), got ",
                               what, " of shape ", shapeStr(t.getShape()));
  }
  results.push_back(*rhs);
  return success();
}

LogicalResult TridiagonalSolveOp::verify() {
  return verifyResults(*this, {"result type must be b's type"});
}

namespace {
/// `x` moved by one along `axis`: y[i] = x[i - 1] (`down`) or x[i + 1],
/// zero where that is outside.
Value shiftAlong(MlaxBuilder &m, Value x, int64_t axis, bool down) {
  auto t = tensorOf(x);
  int64_t size = t.getDimSize(axis), rank = t.getRank();
  if (size == 0)
    return x;
  SmallVector<int64_t> start(rank, 0), limit(t.getShape()), strides(rank, 1);
  SmallVector<int64_t> low(rank, 0), high(rank, 0), interior(rank, 0);
  if (down) {
    limit[axis] = size - 1;
    low[axis] = 1;
  } else {
    start[axis] = 1;
    high[axis] = 1;
  }
  Value part = SliceOp::create(m.b, m.loc, x, start, limit, strides);
  Value zero = m.scalar(t.getElementType(), 0.0);
  return PadOp::create(m.b, m.loc, part, zero, low, high, interior);
}
} // namespace

LogicalResult TridiagonalSolveOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                                      SmallVectorImpl<Value> &resultTangents) {
  Value ddl = tangents[0], dd = tangents[1], ddu = tangents[2], db = tangents[3];
  if (!ddl && !dd && !ddu && !db) {
    resultTangents.push_back({});
    return success();
  }
  // a dX = dB - da X, da the tridiagonal matrix of the diagonals' tangents.
  MlaxBuilder m(b, *this);
  Value x = getResult();
  auto xt = tensorOf(x);
  int64_t rowAxis = xt.getRank() - 2;
  Value rhs = db;
  auto term = [&](Value diag, Value of) {
    rhs = m.sub(rhs ? rhs : m.zeros(xt), m.mul(m.spread(diag, xt, true), of));
  };
  if (ddl)
    term(ddl, shiftAlong(m, x, rowAxis, true));
  if (dd)
    term(dd, x);
  if (ddu)
    term(ddu, shiftAlong(m, x, rowAxis, false));
  resultTangents.push_back(
      TridiagonalSolveOp::create(b, getLoc(), xt, getDl(), getD(), getDu(), rhs,
                                 getPerturbSingular()));
  return success();
}

LogicalResult TridiagonalSolveOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                                      SmallVectorImpl<Value> &operandCotangents) {
  Value ct = cotangents[0];
  if (!ct) {
    operandCotangents.append(4, Value());
    return success();
  }
  // Bbar = a^-T ct: a^T's lower diagonal is du moved down, its upper dl
  // moved up (jax's transpose rule); each diagonal's cotangent is minus
  // Bbar's rows against X's rows on that diagonal.
  MlaxBuilder m(b, *this);
  Value x = getResult();
  auto xt = tensorOf(x);
  int64_t rowAxis = xt.getRank() - 2, vecAxis = xt.getRank() - 2;
  Value dlT = shiftAlong(m, getDu(), vecAxis, true);
  Value duT = shiftAlong(m, getDl(), vecAxis, false);
  Value bbar =
      TridiagonalSolveOp::create(b, getLoc(), xt, dlT, getD(), duT, ct, getPerturbSingular());
  auto rowDot = [&](Value of) {
    return m.neg(m.reduceSum(m.mul(bbar, of), {xt.getRank() - 1}));
  };
  operandCotangents.push_back(rowDot(shiftAlong(m, x, rowAxis, true)));
  operandCotangents.push_back(rowDot(x));
  operandCotangents.push_back(rowDot(shiftAlong(m, x, rowAxis, false)));
  operandCotangents.push_back(bbar);
  return success();
}

LogicalResult TridiagonalSolveOp::batch(OpBuilder &b, ValueRange operands,
                                        ArrayRef<bool> batched, int64_t batchSize,
                                        SmallVectorImpl<Value> &results) {
  Location loc = getLoc();
  SmallVector<Value> in;
  for (auto [v, isBatched] : llvm::zip(operands, batched))
    in.push_back(ensureBatched(b, loc, v, isBatched, batchSize));
  results.push_back(
      TridiagonalSolveOp::create(b, loc, in[3].getType(), in[0], in[1], in[2], in[3],
                                 getPerturbSingular()));
  return success();
}

//===----------------------------------------------------------------------===//
// dot_general
//===----------------------------------------------------------------------===//

namespace {
/// The kind of an element type a dot_general may widen within.
enum class DotKind { Integer, Float, Complex, Other };
DotKind dotKind(Type t) {
  if (llvm::isa<IntegerType>(t))
    return DotKind::Integer;
  if (llvm::isa<FloatType>(t))
    return DotKind::Float;
  return llvm::isa<ComplexType>(t) ? DotKind::Complex : DotKind::Other;
}
} // namespace

LogicalResult DotGeneralOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                             Adaptor adaptor, SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  if (!allRanked(adaptor.getOperands()))
    return notTensors(loc, name);
  auto lhs = tensorOf(adaptor.getLhs()), rhs = tensorOf(adaptor.getRhs());
  ArrayRef<int64_t> lb = adaptor.getLhsBatchingDimensions(),
                    rb = adaptor.getRhsBatchingDimensions(),
                    lc = adaptor.getLhsContractingDimensions(),
                    rc = adaptor.getRhsContractingDimensions();
  if (lb.size() != rb.size())
    return emitOptionalError(loc, "'", name, "' op lhs and rhs need as many batch dimensions, "
                             "got ", shapeStr(lb), " and ", shapeStr(rb));
  if (lc.size() != rc.size())
    return emitOptionalError(loc, "'", name, "' op lhs and rhs need as many contracting "
                             "dimensions, got ", shapeStr(lc), " and ", shapeStr(rc));
  SmallVector<int64_t> lAll(lb), rAll(rb);
  lAll.append(lc.begin(), lc.end());
  rAll.append(rc.begin(), rc.end());
  if (failed(checkDims(loc, name, "lhs dimension", lAll, lhs.getRank())) ||
      failed(checkDims(loc, name, "rhs dimension", rAll, rhs.getRank())))
    return failure();
  for (auto [l, r] : llvm::zip(lAll, rAll))
    if (lhs.getDimSize(l) != rhs.getDimSize(r))
      return emitOptionalError(loc, "'", name, "' op lhs dimension ", l, " (size ",
                               lhs.getDimSize(l), ") does not match rhs dimension ", r,
                               " (size ", rhs.getDimSize(r), "); shapes ",
                               shapeStr(lhs.getShape()), " and ", shapeStr(rhs.getShape()));
  Type in = lhs.getElementType();
  if (in != rhs.getElementType())
    return emitOptionalError(loc, "'", name, "' op operands must have one element type, got ",
                             in, " and ", rhs.getElementType());
  Type out = in;
  if (TypeAttr preferred = adaptor.getPreferredElementTypeAttr()) {
    out = preferred.getValue();
    if (dotKind(in) == DotKind::Other || dotKind(out) != dotKind(in))
      return emitOptionalError(loc, "'", name, "' op result element type ", out,
                               " is not of the operands' kind (", in, ")");
  }
  SmallVector<int64_t> shape;
  for (int64_t d : lb)
    shape.push_back(lhs.getDimSize(d));
  for (int64_t i = 0; i < lhs.getRank(); ++i)
    if (!llvm::is_contained(lAll, i))
      shape.push_back(lhs.getDimSize(i));
  for (int64_t i = 0; i < rhs.getRank(); ++i)
    if (!llvm::is_contained(rAll, i))
      shape.push_back(rhs.getDimSize(i));
  results.push_back(RankedTensorType::get(shape, out));
  return success();
}

LogicalResult DotGeneralOp::verify() {
  SmallVector<Type> inferred;
  if (failed(inferReturnTypes(getContext(), getLoc(), Adaptor(*this), inferred)))
    return failure();
  auto want = llvm::cast<RankedTensorType>(inferred.front());
  if (want.getShape() != getType().getShape())
    return emitOpError("result shape should be ")
           << shapeStr(want.getShape()) << ", got " << shapeStr(getType().getShape());
  if (want != getType())
    return emitOpError("result type must be ") << want << ", got " << getType();
  return success();
}

namespace mlir::mlax {
/// dot_general's types in the custom form, `(lhs, rhs) -> result`: a result
/// element type other than the operands' is its preferred_element_type.
ParseResult parseDotTypes(OpAsmParser &parser, Type &lhs, Type &rhs, Type &result,
                          TypeAttr &preferred) {
  if (parser.parseLParen() || parser.parseType(lhs) || parser.parseComma() ||
      parser.parseType(rhs) || parser.parseRParen() || parser.parseArrow() ||
      parser.parseType(result))
    return failure();
  auto in = llvm::dyn_cast<ShapedType>(lhs), out = llvm::dyn_cast<ShapedType>(result);
  if (in && out && in.getElementType() != out.getElementType())
    preferred = TypeAttr::get(out.getElementType());
  return success();
}

void printDotTypes(OpAsmPrinter &printer, Operation *, Type lhs, Type rhs, Type result,
                   TypeAttr) {
  printer << "(" << lhs << ", " << rhs << ") -> " << result;
}
} // namespace mlir::mlax

//======================================================================//
// dot_general: folder
//======================================================================//

OpFoldResult DotGeneralOp::fold(FoldAdaptor adaptor) {
  auto lhs = dense(adaptor.getLhs()), rhs = dense(adaptor.getRhs());
  auto type = llvm::cast<ShapedType>(getType());
  if (!lhs || !rhs || !mayMaterialise(type, false))
    return {};
  Type inElem = lhs.getElementType(), outElem = type.getElementType();
  bool isFloat = isFoldableFloat(inElem) && isFoldableFloat(outElem);
  // Bool products (i1) are left to XLA.
  bool isInt = isFoldableInt(inElem) && isFoldableInt(outElem) &&
               inElem.getIntOrFloatBitWidth() > 1;
  if (!isFloat && !isInt)
    return {};
  auto lt = llvm::cast<ShapedType>(lhs.getType()),
       rt = llvm::cast<ShapedType>(rhs.getType());
  ArrayRef<int64_t> lb = getLhsBatchingDimensions(),
                    rb = getRhsBatchingDimensions(),
                    lc = getLhsContractingDimensions(),
                    rc = getRhsContractingDimensions();
  SmallVector<int64_t> lFree, rFree, contractShape;
  for (int64_t i = 0; i < lt.getRank(); ++i)
    if (!llvm::is_contained(lb, i) && !llvm::is_contained(lc, i))
      lFree.push_back(i);
  for (int64_t i = 0; i < rt.getRank(); ++i)
    if (!llvm::is_contained(rb, i) && !llvm::is_contained(rc, i))
      rFree.push_back(i);
  int64_t contractSize = 1;
  for (int64_t d : lc) {
    contractShape.push_back(lt.getDimSize(d));
    contractSize *= lt.getDimSize(d);
  }
  // Bound the work, not only the result: a small product of huge matrices
  // is left to XLA.
  if (type.getNumElements() * std::max<int64_t>(contractSize, 1) >
      16 * kMaxFoldedElements)
    return {};
  SmallVector<int64_t> ls = stridesOf(lt.getShape()), rs = stridesOf(rt.getShape());

  // Flat operand offsets of a result index (without the contraction).
  auto offsets = [&](ArrayRef<int64_t> idx) {
    int64_t l = 0, r = 0, k = 0;
    for (size_t i = 0; i < lb.size(); ++i, ++k) {
      l += idx[k] * ls[lb[i]];
      r += idx[k] * rs[rb[i]];
    }
    for (int64_t d : lFree)
      l += idx[k++] * ls[d];
    for (int64_t d : rFree)
      r += idx[k++] * rs[d];
    return std::make_pair(l, r);
  };
  // Flat offsets of every contraction index, for both operands.
  SmallVector<std::pair<int64_t, int64_t>> contract;
  SmallVector<int64_t> c(lc.size(), 0);
  for (int64_t n = 0; n < contractSize; ++n) {
    int64_t l = 0, r = 0;
    for (size_t j = 0; j < lc.size(); ++j) {
      l += c[j] * ls[lc[j]];
      r += c[j] * rs[rc[j]];
    }
    contract.push_back({l, r});
    for (int64_t j = (int64_t)c.size() - 1; j >= 0; --j) {
      if (++c[j] < contractShape[j])
        break;
      c[j] = 0;
    }
  }

  SmallVector<int64_t> idx(type.getRank(), 0);
  auto next = [&] {
    for (int64_t d = type.getRank() - 1; d >= 0; --d) {
      if (++idx[d] < type.getDimSize(d))
        return;
      idx[d] = 0;
    }
  };
  if (isFloat) {
    // Accumulate in double, round once to the result type.
    auto toDouble = [](const APFloat &v) {
      bool loses;
      APFloat d = v;
      d.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &loses);
      return d.convertToDouble();
    };
    SmallVector<double> lv, rv;
    for (const APFloat &v : lhs.getValues<APFloat>()) {
      lv.push_back(toDouble(v));
      if (lhs.isSplat())
        break;
    }
    for (const APFloat &v : rhs.getValues<APFloat>()) {
      rv.push_back(toDouble(v));
      if (rhs.isSplat())
        break;
    }
    const auto &sem = llvm::cast<FloatType>(outElem).getFloatSemantics();
    SmallVector<APFloat> out;
    for (int64_t n = 0; n < type.getNumElements(); ++n, next()) {
      auto [l0, r0] = offsets(idx);
      double acc = 0.0;
      for (auto [l, r] : contract)
        acc += lv[lhs.isSplat() ? 0 : l0 + l] * rv[rhs.isSplat() ? 0 : r0 + r];
      APFloat v(acc);
      bool loses;
      v.convert(sem, APFloat::rmNearestTiesToEven, &loses);
      out.push_back(v);
    }
    return DenseElementsAttr::get(type, ArrayRef<APFloat>(out));
  }
  // Integers: extend to the result width, then wrap.
  unsigned width = outElem.getIntOrFloatBitWidth();
  bool isUnsigned = isUnsignedInt(inElem);
  auto widen = [&](const APInt &v) {
    return isUnsigned ? v.zextOrTrunc(width) : v.sextOrTrunc(width);
  };
  SmallVector<APInt> lv, rv;
  for (const APInt &v : lhs.getValues<APInt>()) {
    lv.push_back(widen(v));
    if (lhs.isSplat())
      break;
  }
  for (const APInt &v : rhs.getValues<APInt>()) {
    rv.push_back(widen(v));
    if (rhs.isSplat())
      break;
  }
  SmallVector<APInt> out;
  for (int64_t n = 0; n < type.getNumElements(); ++n, next()) {
    auto [l0, r0] = offsets(idx);
    APInt acc(width, 0);
    for (auto [l, r] : contract)
      acc += lv[lhs.isSplat() ? 0 : l0 + l] * rv[rhs.isSplat() ? 0 : r0 + r];
    out.push_back(acc);
  }
  return DenseElementsAttr::get(type, ArrayRef<APInt>(out));
}
//===----------------------------------------------------------------------===//
// dot_general (bilinear)
//===----------------------------------------------------------------------===//

namespace {
struct DotDims {
  SmallVector<int64_t> lhsBatch, rhsBatch, lhsContract, rhsContract;
};

/// The preferred_element_type attribute of a product of `operand`s in
/// `elementType`: none when that is the operands' own.
TypeAttr preferredType(RankedTensorType operand, Type elementType) {
  return operand.getElementType() == elementType ? TypeAttr() : TypeAttr::get(elementType);
}

SmallVector<int64_t> freeDims(int64_t rank, ArrayRef<int64_t> contract,
                              ArrayRef<int64_t> batch) {
  SmallVector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(contract, d) && !llvm::is_contained(batch, d))
      free.push_back(d);
  return free;
}

/// The product in `elementType` (the operands' or wider).
Value dotGeneral(OpBuilder &b, Location loc, Value lhs, Value rhs, const DotDims &dims,
                 Type elementType) {
  RankedTensorType l = tensorOf(lhs), r = tensorOf(rhs);
  SmallVector<int64_t> shape;
  for (int64_t d : dims.lhsBatch)
    shape.push_back(l.getDimSize(d));
  for (int64_t d : freeDims(l.getRank(), dims.lhsContract, dims.lhsBatch))
    shape.push_back(l.getDimSize(d));
  for (int64_t d : freeDims(r.getRank(), dims.rhsContract, dims.rhsBatch))
    shape.push_back(r.getDimSize(d));
  return DotGeneralOp::create(b, loc, RankedTensorType::get(shape, elementType), lhs, rhs,
                              dims.lhsBatch, dims.rhsBatch, dims.lhsContract,
                              dims.rhsContract, preferredType(l, elementType));
}

/// The cotangent of the lhs `x` of `dot_general(x, y)` given the result's
/// cotangent `g` (jax.lax's `_dot_general_transpose_lhs`). With `swapAns`
/// the product was `dot_general(y, x)`, i.e. this computes the rhs's.
Value transposeLhs(MlaxBuilder &e, Value g, Value x, Value y, const DotDims &dims, bool swapAns) {
  int64_t xRank = tensorOf(x).getRank(), yRank = tensorOf(y).getRank();
  SmallVector<int64_t> xKept = freeDims(xRank, dims.lhsContract, dims.lhsBatch);
  SmallVector<int64_t> yKept = freeDims(yRank, dims.rhsContract, dims.rhsBatch);
  int64_t nb = dims.lhsBatch.size();
  // Positions in g: batch dims, then the first operand's free dims, then the
  // second's.
  SmallVector<int64_t> ansBatch, ansY;
  for (int64_t i = 0; i < nb; ++i)
    ansBatch.push_back(i);
  int64_t yStart = swapAns ? nb : nb + static_cast<int64_t>(xKept.size());
  for (int64_t i = 0; i < static_cast<int64_t>(yKept.size()); ++i)
    ansY.push_back(yStart + i);
  DotDims gy{ansBatch, dims.rhsBatch, ansY, yKept};
  Type elt = tensorOf(x).getElementType();
  // As jax.lax's rule, g (in the result's element type: the operands' or the
  // preferred one) and y meet in the wider of their types, and the product is
  // in g's: with bf16 operands and a preferred f32 result the cotangent is
  // not rounded to bf16 before the product, only the product is.
  Type gElt = tensorOf(g).getElementType(), yElt = tensorOf(y).getElementType();
  auto width = [](Type t) {
    if (auto c = llvm::dyn_cast<ComplexType>(t))
      return 2 * c.getElementType().getIntOrFloatBitWidth();
    return t.getIntOrFloatBitWidth();
  };
  Type common = width(gElt) > width(yElt) ? gElt : yElt;
  Value prod = dotGeneral(e.b, e.loc, e.convert(g, common), e.convert(y, common), gy, gElt);
  prod = e.convert(prod, elt);
  // prod's dims are x's batch dims, x's kept dims, then x's contracting dims
  // ordered as y's contracting dims are sorted.
  SmallVector<int64_t> order(dims.rhsContract.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  llvm::sort(order, [&](int64_t a, int64_t c) {
    return dims.rhsContract[a] < dims.rhsContract[c];
  });
  SmallVector<int64_t> layout(dims.lhsBatch);
  layout.append(xKept.begin(), xKept.end());
  for (int64_t i : order)
    layout.push_back(dims.lhsContract[i]);
  // out_axes = argsort(layout)
  SmallVector<int64_t> outAxes(layout.size());
  for (size_t i = 0; i < layout.size(); ++i)
    outAxes[layout[i]] = i;
  return e.transpose(prod, outAxes);
}
} // namespace

LogicalResult DotGeneralOp::jvp(OpBuilder &b, ArrayRef<Value> tangents,
                                SmallVectorImpl<Value> &resultTangents) {
  MlaxBuilder e(b, *this);
  DotDims dims{SmallVector<int64_t>(getLhsBatchingDimensions()),
               SmallVector<int64_t>(getRhsBatchingDimensions()),
               SmallVector<int64_t>(getLhsContractingDimensions()),
               SmallVector<int64_t>(getRhsContractingDimensions())};
  Type elt = getType().getElementType();
  Value t;
  if (tangents[0])
    t = e.add(t, dotGeneral(b, getLoc(), tangents[0], getRhs(), dims, elt));
  if (tangents[1])
    t = e.add(t, dotGeneral(b, getLoc(), getLhs(), tangents[1], dims, elt));
  resultTangents.push_back(ad::isDifferentiableType(getType()) ? t : Value());
  return success();
}

LogicalResult DotGeneralOp::vjp(OpBuilder &b, ArrayRef<Value> cotangents,
                                SmallVectorImpl<Value> &operandCotangents) {
  Value g = cotangents[0];
  if (!g) {
    operandCotangents.append(2, Value());
    return success();
  }
  MlaxBuilder e(b, *this);
  DotDims dims{SmallVector<int64_t>(getLhsBatchingDimensions()),
               SmallVector<int64_t>(getRhsBatchingDimensions()),
               SmallVector<int64_t>(getLhsContractingDimensions()),
               SmallVector<int64_t>(getRhsContractingDimensions())};
  DotDims swapped{dims.rhsBatch, dims.lhsBatch, dims.rhsContract, dims.lhsContract};
  Value lhs = getLhs(), rhs = getRhs();
  operandCotangents.push_back(ad::isDifferentiableType(lhs.getType())
                                  ? transposeLhs(e, g, lhs, rhs, dims, false)
                                  : Value());
  operandCotangents.push_back(ad::isDifferentiableType(rhs.getType())
                                  ? transposeLhs(e, g, rhs, lhs, swapped, true)
                                  : Value());
  return success();
}

//======================================================================//
// dot_general: batching rule
//======================================================================//

LogicalResult DotGeneralOp::batch(OpBuilder &b, ValueRange operands, ArrayRef<bool> batched,
                                  int64_t batchSize, SmallVectorImpl<Value> &results) {
  Location loc = getLoc();
  ArrayRef<int64_t> lb = getLhsBatchingDimensions(), rb = getRhsBatchingDimensions();
  ArrayRef<int64_t> lc = getLhsContractingDimensions(), rc = getRhsContractingDimensions();
  auto lhsType = llvm::cast<RankedTensorType>(getLhs().getType());
  Type elt = getType().getElementType();
  ArrayRef<int64_t> shape = getType().getShape();
  auto make = [&](ArrayRef<int64_t> outShape, ArrayRef<int64_t> nlb, ArrayRef<int64_t> nrb,
                  ArrayRef<int64_t> nlc, ArrayRef<int64_t> nrc) -> Value {
    return DotGeneralOp::create(b, loc, RankedTensorType::get(outShape, elt), operands[0],
                                operands[1], nlb, nrb, nlc, nrc, getPreferredElementTypeAttr());
  };
  SmallVector<int64_t> batchedShape{batchSize};
  batchedShape.append(shape.begin(), shape.end());
  if (batched[0] && batched[1]) {
    // The vmapped dimension becomes the leading batch dimension of both.
    results.push_back(make(batchedShape, withBatchFirst(lb), withBatchFirst(rb), shifted(lc),
                           shifted(rc)));
    return success();
  }
  // One side batched: the batch dimension is a free dimension of that side;
  // dot_general puts it after the batch dimensions (lhs) or after the lhs
  // free dimensions (rhs), from where a transpose moves it to the front.
  int64_t nb = lb.size();
  int64_t lhsFree = lhsType.getRank() - nb - static_cast<int64_t>(lc.size());
  int64_t position = batched[0] ? nb : nb + lhsFree;
  SmallVector<int64_t> outShape(shape);
  outShape.insert(outShape.begin() + position, batchSize);
  Value product = batched[0] ? make(outShape, shifted(lb), rb, shifted(lc), rc)
                             : make(outShape, lb, shifted(rb), lc, shifted(rc));
  SmallVector<int64_t> perm{position};
  for (int64_t d = 0; d < static_cast<int64_t>(outShape.size()); ++d)
    if (d != position)
      perm.push_back(d);
  results.push_back(position == 0 ? product : TransposeOp::create(b, loc, product, perm));
  return success();
}
