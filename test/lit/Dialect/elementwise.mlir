// Round trip of the elementwise ops (unary, binary, compare, select_n, convert, the complex parts)' custom assembly format:
// parse, print, parse the printed form again, print again.
//
// RUN: mlax-opt %s | mlax-opt | FileCheck %s
//
// The generic form must parse back into the same ops:
// RUN: mlax-opt %s --mlir-print-op-generic | mlax-opt | FileCheck %s
// RUN: mlax-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

//===----------------------------------------------------------------------===//
// Elementwise unary ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @neg(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = mlax.neg %[[X]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @neg(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.neg %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @exp(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = mlax.exp %[[X]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @exp(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @log(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = mlax.log %[[X]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @log(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.log %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @sin(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = mlax.sin %[[X]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @sin(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.sin %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @cos(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = mlax.cos %[[X]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @cos(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.cos %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @tan(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = mlax.tan %[[X]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @tan(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.tan %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @tanh(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = mlax.tanh %[[X]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @tanh(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.tanh %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @sqrt(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = mlax.sqrt %[[X]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @sqrt(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.sqrt %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @rsqrt(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = mlax.rsqrt %[[X]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @rsqrt(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.rsqrt %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @abs(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = mlax.abs %[[X]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @abs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.abs %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @sign(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = mlax.sign %[[X]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @sign(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.sign %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @floor(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = mlax.floor %[[X]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @floor(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.floor %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @ceil(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = mlax.ceil %[[X]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @ceil(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.ceil %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @round(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = mlax.round %[[X]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @round(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.round %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @round_even(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = mlax.round_even %[[X]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @round_even(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.round_even %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @logistic(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = mlax.logistic %[[X]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @logistic(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.logistic %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @log1p(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = mlax.log1p %[[X]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @log1p(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.log1p %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @expm1(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = mlax.expm1 %[[X]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @expm1(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.expm1 %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @not(
// CHECK-SAME: %[[X:.*]]: tensor<4xi1>)
// CHECK: %[[R:.*]] = mlax.not %[[X]] : tensor<4xi1>
// CHECK: return %[[R]] : tensor<4xi1>
func.func @not(%x: tensor<4xi1>) -> tensor<4xi1> {
  %0 = mlax.not %x : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @neg_i32(
// CHECK-SAME: %[[X:.*]]: tensor<4xi32>)
// CHECK: %[[R:.*]] = mlax.neg %[[X]] : tensor<4xi32>
// CHECK: return %[[R]] : tensor<4xi32>
func.func @neg_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = mlax.neg %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @abs_i32(
// CHECK-SAME: %[[X:.*]]: tensor<4xi32>)
// CHECK: %[[R:.*]] = mlax.abs %[[X]] : tensor<4xi32>
// CHECK: return %[[R]] : tensor<4xi32>
func.func @abs_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = mlax.abs %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @exp_complex(
// CHECK-SAME: %[[X:.*]]: tensor<4xcomplex<f32>>)
// CHECK: %[[R:.*]] = mlax.exp %[[X]] : tensor<4xcomplex<f32>>
// CHECK: return %[[R]] : tensor<4xcomplex<f32>>
func.func @exp_complex(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = mlax.exp %x : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// CHECK-LABEL: func.func @exp_bf16(
// CHECK-SAME: %[[X:.*]]: tensor<4xbf16>)
// CHECK: %[[R:.*]] = mlax.exp %[[X]] : tensor<4xbf16>
// CHECK: return %[[R]] : tensor<4xbf16>
func.func @exp_bf16(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = mlax.exp %x : tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// CHECK-LABEL: func.func @sign_i8(
// CHECK-SAME: %[[X:.*]]: tensor<4xi8>)
// CHECK: %[[R:.*]] = mlax.sign %[[X]] : tensor<4xi8>
// CHECK: return %[[R]] : tensor<4xi8>
func.func @sign_i8(%x: tensor<4xi8>) -> tensor<4xi8> {
  %0 = mlax.sign %x : tensor<4xi8>
  return %0 : tensor<4xi8>
}

// CHECK-LABEL: func.func @not_i32(
// CHECK-SAME: %[[X:.*]]: tensor<4xi32>)
// CHECK: %[[R:.*]] = mlax.not %[[X]] : tensor<4xi32>
// CHECK: return %[[R]] : tensor<4xi32>
func.func @not_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = mlax.not %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @not_ui8(
// CHECK-SAME: %[[X:.*]]: tensor<4xui8>)
// CHECK: %[[R:.*]] = mlax.not %[[X]] : tensor<4xui8>
// CHECK: return %[[R]] : tensor<4xui8>
func.func @not_ui8(%x: tensor<4xui8>) -> tensor<4xui8> {
  %0 = mlax.not %x : tensor<4xui8>
  return %0 : tensor<4xui8>
}

// CHECK-LABEL: func.func @is_finite(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>) -> tensor<4xi1>
// CHECK: %[[R:.*]] = mlax.is_finite %[[X]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xi1>
// GENERIC-LABEL: sym_name = "is_finite"
// GENERIC: "mlax.is_finite"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xi1>
func.func @is_finite(%x: tensor<4xf32>) -> tensor<4xi1> {
  %0 = mlax.is_finite %x : tensor<4xf32>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @reduce_precision(
// CHECK-SAME: %[[X:.*]]: tensor<4xbf16>) -> tensor<4xbf16>
// CHECK: %[[R:.*]] = mlax.reduce_precision %[[X]] {exponent_bits = 5 : i32, mantissa_bits = 2 : i32} : tensor<4xbf16>
// CHECK: return %[[R]] : tensor<4xbf16>
// GENERIC-LABEL: sym_name = "reduce_precision"
// GENERIC: "mlax.reduce_precision"(%{{.*}}) <{exponent_bits = 5 : i32, mantissa_bits = 2 : i32}> : (tensor<4xbf16>) -> tensor<4xbf16>
func.func @reduce_precision(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = mlax.reduce_precision %x {exponent_bits = 5 : i32, mantissa_bits = 2 : i32} : tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @add(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = mlax.add %[[X]], %[[Y]] : tensor<2x3xf32>
// CHECK: return %[[R]] : tensor<2x3xf32>
func.func @add(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.add %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @sub(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = mlax.sub %[[X]], %[[Y]] : tensor<2x3xf32>
// CHECK: return %[[R]] : tensor<2x3xf32>
func.func @sub(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.sub %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @mul(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = mlax.mul %[[X]], %[[Y]] : tensor<2x3xf32>
// CHECK: return %[[R]] : tensor<2x3xf32>
func.func @mul(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.mul %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @div(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = mlax.div %[[X]], %[[Y]] : tensor<2x3xf32>
// CHECK: return %[[R]] : tensor<2x3xf32>
func.func @div(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.div %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @pow(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = mlax.pow %[[X]], %[[Y]] : tensor<2x3xf32>
// CHECK: return %[[R]] : tensor<2x3xf32>
func.func @pow(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.pow %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @max(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = mlax.max %[[X]], %[[Y]] : tensor<2x3xf32>
// CHECK: return %[[R]] : tensor<2x3xf32>
func.func @max(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.max %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @min(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = mlax.min %[[X]], %[[Y]] : tensor<2x3xf32>
// CHECK: return %[[R]] : tensor<2x3xf32>
func.func @min(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.min %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @rem(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = mlax.rem %[[X]], %[[Y]] : tensor<2x3xf32>
// CHECK: return %[[R]] : tensor<2x3xf32>
func.func @rem(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.rem %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @atan2(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK: %[[R:.*]] = mlax.atan2 %[[X]], %[[Y]] : tensor<2x3xf32>
// CHECK: return %[[R]] : tensor<2x3xf32>
func.func @atan2(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.atan2 %x, %y : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @and(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xi1>, %[[Y:.*]]: tensor<2x3xi1>)
// CHECK: %[[R:.*]] = mlax.and %[[X]], %[[Y]] : tensor<2x3xi1>
// CHECK: return %[[R]] : tensor<2x3xi1>
func.func @and(%x: tensor<2x3xi1>, %y: tensor<2x3xi1>) -> tensor<2x3xi1> {
  %0 = mlax.and %x, %y : tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// CHECK-LABEL: func.func @or(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xi1>, %[[Y:.*]]: tensor<2x3xi1>)
// CHECK: %[[R:.*]] = mlax.or %[[X]], %[[Y]] : tensor<2x3xi1>
// CHECK: return %[[R]] : tensor<2x3xi1>
func.func @or(%x: tensor<2x3xi1>, %y: tensor<2x3xi1>) -> tensor<2x3xi1> {
  %0 = mlax.or %x, %y : tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// CHECK-LABEL: func.func @xor(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xi1>, %[[Y:.*]]: tensor<2x3xi1>)
// CHECK: %[[R:.*]] = mlax.xor %[[X]], %[[Y]] : tensor<2x3xi1>
// CHECK: return %[[R]] : tensor<2x3xi1>
func.func @xor(%x: tensor<2x3xi1>, %y: tensor<2x3xi1>) -> tensor<2x3xi1> {
  %0 = mlax.xor %x, %y : tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// CHECK-LABEL: func.func @add_i32(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xi32>, %[[Y:.*]]: tensor<2x3xi32>)
// CHECK: %[[R:.*]] = mlax.add %[[X]], %[[Y]] : tensor<2x3xi32>
// CHECK: return %[[R]] : tensor<2x3xi32>
func.func @add_i32(%x: tensor<2x3xi32>, %y: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = mlax.add %x, %y : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// CHECK-LABEL: func.func @mul_ui32(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xui32>, %[[Y:.*]]: tensor<2x3xui32>)
// CHECK: %[[R:.*]] = mlax.mul %[[X]], %[[Y]] : tensor<2x3xui32>
// CHECK: return %[[R]] : tensor<2x3xui32>
func.func @mul_ui32(%x: tensor<2x3xui32>, %y: tensor<2x3xui32>) -> tensor<2x3xui32> {
  %0 = mlax.mul %x, %y : tensor<2x3xui32>
  return %0 : tensor<2x3xui32>
}

// CHECK-LABEL: func.func @div_i64(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xi64>, %[[Y:.*]]: tensor<2x3xi64>)
// CHECK: %[[R:.*]] = mlax.div %[[X]], %[[Y]] : tensor<2x3xi64>
// CHECK: return %[[R]] : tensor<2x3xi64>
func.func @div_i64(%x: tensor<2x3xi64>, %y: tensor<2x3xi64>) -> tensor<2x3xi64> {
  %0 = mlax.div %x, %y : tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}

// CHECK-LABEL: func.func @max_i1(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xi1>, %[[Y:.*]]: tensor<2x3xi1>)
// CHECK: %[[R:.*]] = mlax.max %[[X]], %[[Y]] : tensor<2x3xi1>
// CHECK: return %[[R]] : tensor<2x3xi1>
func.func @max_i1(%x: tensor<2x3xi1>, %y: tensor<2x3xi1>) -> tensor<2x3xi1> {
  %0 = mlax.max %x, %y : tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// CHECK-LABEL: func.func @min_ui8(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xui8>, %[[Y:.*]]: tensor<2x3xui8>)
// CHECK: %[[R:.*]] = mlax.min %[[X]], %[[Y]] : tensor<2x3xui8>
// CHECK: return %[[R]] : tensor<2x3xui8>
func.func @min_ui8(%x: tensor<2x3xui8>, %y: tensor<2x3xui8>) -> tensor<2x3xui8> {
  %0 = mlax.min %x, %y : tensor<2x3xui8>
  return %0 : tensor<2x3xui8>
}

// CHECK-LABEL: func.func @rem_i32(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xi32>, %[[Y:.*]]: tensor<2x3xi32>)
// CHECK: %[[R:.*]] = mlax.rem %[[X]], %[[Y]] : tensor<2x3xi32>
// CHECK: return %[[R]] : tensor<2x3xi32>
func.func @rem_i32(%x: tensor<2x3xi32>, %y: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = mlax.rem %x, %y : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// CHECK-LABEL: func.func @and_i32(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xi32>, %[[Y:.*]]: tensor<2x3xi32>)
// CHECK: %[[R:.*]] = mlax.and %[[X]], %[[Y]] : tensor<2x3xi32>
// CHECK: return %[[R]] : tensor<2x3xi32>
func.func @and_i32(%x: tensor<2x3xi32>, %y: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = mlax.and %x, %y : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// CHECK-LABEL: func.func @or_ui16(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xui16>, %[[Y:.*]]: tensor<2x3xui16>)
// CHECK: %[[R:.*]] = mlax.or %[[X]], %[[Y]] : tensor<2x3xui16>
// CHECK: return %[[R]] : tensor<2x3xui16>
func.func @or_ui16(%x: tensor<2x3xui16>, %y: tensor<2x3xui16>) -> tensor<2x3xui16> {
  %0 = mlax.or %x, %y : tensor<2x3xui16>
  return %0 : tensor<2x3xui16>
}

// CHECK-LABEL: func.func @xor_i8(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xi8>, %[[Y:.*]]: tensor<2x3xi8>)
// CHECK: %[[R:.*]] = mlax.xor %[[X]], %[[Y]] : tensor<2x3xi8>
// CHECK: return %[[R]] : tensor<2x3xi8>
func.func @xor_i8(%x: tensor<2x3xi8>, %y: tensor<2x3xi8>) -> tensor<2x3xi8> {
  %0 = mlax.xor %x, %y : tensor<2x3xi8>
  return %0 : tensor<2x3xi8>
}

// CHECK-LABEL: func.func @add_complex(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xcomplex<f32>>, %[[Y:.*]]: tensor<2x3xcomplex<f32>>)
// CHECK: %[[R:.*]] = mlax.add %[[X]], %[[Y]] : tensor<2x3xcomplex<f32>>
// CHECK: return %[[R]] : tensor<2x3xcomplex<f32>>
func.func @add_complex(%x: tensor<2x3xcomplex<f32>>, %y: tensor<2x3xcomplex<f32>>) -> tensor<2x3xcomplex<f32>> {
  %0 = mlax.add %x, %y : tensor<2x3xcomplex<f32>>
  return %0 : tensor<2x3xcomplex<f32>>
}

// CHECK-LABEL: func.func @sub_f16(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf16>, %[[Y:.*]]: tensor<2x3xf16>)
// CHECK: %[[R:.*]] = mlax.sub %[[X]], %[[Y]] : tensor<2x3xf16>
// CHECK: return %[[R]] : tensor<2x3xf16>
func.func @sub_f16(%x: tensor<2x3xf16>, %y: tensor<2x3xf16>) -> tensor<2x3xf16> {
  %0 = mlax.sub %x, %y : tensor<2x3xf16>
  return %0 : tensor<2x3xf16>
}

// GENERIC-LABEL: sym_name = "add"
// GENERIC: "mlax.add"(%{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>

//===----------------------------------------------------------------------===//
// compare, select_n, convert
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @compare_eq(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>) -> tensor<4xi1>
// CHECK: %[[R:.*]] = mlax.compare EQ, %[[X]], %[[Y]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xi1>
func.func @compare_eq(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi1> {
  %0 = mlax.compare EQ, %x, %y : tensor<4xf32>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @compare_ne(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>) -> tensor<4xi1>
// CHECK: %[[R:.*]] = mlax.compare NE, %[[X]], %[[Y]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xi1>
func.func @compare_ne(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi1> {
  %0 = mlax.compare NE, %x, %y : tensor<4xf32>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @compare_lt(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>) -> tensor<4xi1>
// CHECK: %[[R:.*]] = mlax.compare LT, %[[X]], %[[Y]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xi1>
func.func @compare_lt(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi1> {
  %0 = mlax.compare LT, %x, %y : tensor<4xf32>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @compare_le(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>) -> tensor<4xi1>
// CHECK: %[[R:.*]] = mlax.compare LE, %[[X]], %[[Y]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xi1>
func.func @compare_le(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi1> {
  %0 = mlax.compare LE, %x, %y : tensor<4xf32>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @compare_gt(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>) -> tensor<4xi1>
// CHECK: %[[R:.*]] = mlax.compare GT, %[[X]], %[[Y]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xi1>
func.func @compare_gt(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi1> {
  %0 = mlax.compare GT, %x, %y : tensor<4xf32>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @compare_ge(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>) -> tensor<4xi1>
// CHECK: %[[R:.*]] = mlax.compare GE, %[[X]], %[[Y]] : tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xi1>
func.func @compare_ge(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi1> {
  %0 = mlax.compare GE, %x, %y : tensor<4xf32>
  return %0 : tensor<4xi1>
}

// GENERIC-LABEL: sym_name = "compare_gt"
// GENERIC: "mlax.compare"(%{{.*}}, %{{.*}}) <{comparison_direction = 4 : i32}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>

// CHECK-LABEL: func.func @compare_ui32(
// CHECK: mlax.compare LT, %{{.*}}, %{{.*}} : tensor<4xui32>
func.func @compare_ui32(%x: tensor<4xui32>, %y: tensor<4xui32>) -> tensor<4xi1> {
  %0 = mlax.compare LT, %x, %y : tensor<4xui32>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @compare_bool(
// CHECK: mlax.compare EQ, %{{.*}}, %{{.*}} : tensor<4xi1>
func.func @compare_bool(%x: tensor<4xi1>, %y: tensor<4xi1>) -> tensor<4xi1> {
  %0 = mlax.compare EQ, %x, %y : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @select_n_bool(
// CHECK-SAME: %[[P:.*]]: tensor<4xi1>, %[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = mlax.select_n %[[P]], %[[A]], %[[B]] : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
// GENERIC-LABEL: sym_name = "select_n_bool"
// GENERIC: "mlax.select_n"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
func.func @select_n_bool(%p: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.select_n %p, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @select_n_i32_three_cases(
// CHECK-SAME: %[[W:.*]]: tensor<4xi32>, %[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>, %[[C:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = mlax.select_n %[[W]], %[[A]], %[[B]], %[[C]] : tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK: return %[[R]] : tensor<4xf32>
func.func @select_n_i32_three_cases(%w: tensor<4xi32>, %a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.select_n %w, %a, %b, %c : tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @select_n_scalar_which(
// CHECK-SAME: %[[P:.*]]: tensor<i1>, %[[A:.*]]: tensor<2x3xi32>, %[[B:.*]]: tensor<2x3xi32>)
// CHECK: %[[R:.*]] = mlax.select_n %[[P]], %[[A]], %[[B]] : tensor<i1>, tensor<2x3xi32>, tensor<2x3xi32>
func.func @select_n_scalar_which(%p: tensor<i1>, %a: tensor<2x3xi32>, %b: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = mlax.select_n %p, %a, %b : tensor<i1>, tensor<2x3xi32>, tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// CHECK-LABEL: func.func @select_n_one_case(
// CHECK: mlax.select_n %{{.*}}, %{{.*}} : tensor<4xi32>, tensor<4xf32>
func.func @select_n_one_case(%w: tensor<4xi32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.select_n %w, %a : tensor<4xi32>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @convert(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>) -> tensor<4xi32>
// CHECK: %[[R:.*]] = mlax.convert %[[X]] : tensor<4xf32> -> tensor<4xi32>
// CHECK: return %[[R]] : tensor<4xi32>
func.func @convert(%x: tensor<4xf32>) -> tensor<4xi32> {
  %0 = mlax.convert %x : tensor<4xf32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @convert_to_bool(
// CHECK: mlax.convert %{{.*}} : tensor<2x2xui8> -> tensor<2x2xi1>
func.func @convert_to_bool(%x: tensor<2x2xui8>) -> tensor<2x2xi1> {
  %0 = mlax.convert %x : tensor<2x2xui8> -> tensor<2x2xi1>
  return %0 : tensor<2x2xi1>
}

//===----------------------------------------------------------------------===//
// Complex parts: real, imag, conj, complex (result types inferred)
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @real(
// CHECK-SAME: %[[Z:.*]]: tensor<4xcomplex<f32>>) -> tensor<4xf32>
// CHECK: %[[R:.*]] = mlax.real %[[Z]] : tensor<4xcomplex<f32>>
// CHECK: return %[[R]] : tensor<4xf32>
// GENERIC-LABEL: sym_name = "real"
// GENERIC: "mlax.real"(%{{.*}}) : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
func.func @real(%z: tensor<4xcomplex<f32>>) -> tensor<4xf32> {
  %0 = mlax.real %z : tensor<4xcomplex<f32>>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @imag(
// CHECK-SAME: %[[Z:.*]]: tensor<2x3xcomplex<f64>>) -> tensor<2x3xf64>
// CHECK: %[[R:.*]] = mlax.imag %[[Z]] : tensor<2x3xcomplex<f64>>
// CHECK: return %[[R]] : tensor<2x3xf64>
func.func @imag(%z: tensor<2x3xcomplex<f64>>) -> tensor<2x3xf64> {
  %0 = mlax.imag %z : tensor<2x3xcomplex<f64>>
  return %0 : tensor<2x3xf64>
}

// CHECK-LABEL: func.func @conj(
// CHECK-SAME: %[[Z:.*]]: tensor<complex<f32>>)
// CHECK: %[[R:.*]] = mlax.conj %[[Z]] : tensor<complex<f32>>
// CHECK: return %[[R]] : tensor<complex<f32>>
// GENERIC-LABEL: sym_name = "conj"
// GENERIC: "mlax.conj"(%{{.*}}) : (tensor<complex<f32>>) -> tensor<complex<f32>>
func.func @conj(%z: tensor<complex<f32>>) -> tensor<complex<f32>> {
  %0 = mlax.conj %z : tensor<complex<f32>>
  return %0 : tensor<complex<f32>>
}

// CHECK-LABEL: func.func @complex(
// CHECK-SAME: %[[X:.*]]: tensor<4xf64>, %[[Y:.*]]: tensor<4xf64>) -> tensor<4xcomplex<f64>>
// CHECK: %[[R:.*]] = mlax.complex %[[X]], %[[Y]] : tensor<4xf64>
// CHECK: return %[[R]] : tensor<4xcomplex<f64>>
// GENERIC-LABEL: sym_name = "complex"
// GENERIC: "mlax.complex"(%{{.*}}, %{{.*}}) : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xcomplex<f64>>
func.func @complex(%x: tensor<4xf64>, %y: tensor<4xf64>) -> tensor<4xcomplex<f64>> {
  %0 = mlax.complex %x, %y : tensor<4xf64>
  return %0 : tensor<4xcomplex<f64>>
}
