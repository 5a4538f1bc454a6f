// Lowering the narrow float formats and integers (JAX's float8s, float4, int2/int4).
//
// The init value of reduce_max / reduce_min is -inf / +inf for float types
// that have infinities, and the lowest / highest finite value for those that
// do not (as jax.lax does): f8E4M3FN has NaN but no infinity (max 448),
// f4E2M1FN has neither (max 6).
//
// RUN: mlax-opt %s --split-input-file --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --split-input-file --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -

// CHECK-LABEL: func.func @reduce_max_f16(
// CHECK: "stablehlo.constant"() {value = dense<0xFC00> : tensor<f16>} : () -> tensor<f16>
// CHECK: "stablehlo.maximum"
func.func @reduce_max_f16(%x: tensor<4xf16>) -> tensor<f16> {
  %0 = mlax.reduce_max %x, axes = [0] : tensor<4xf16> -> tensor<f16>
  return %0 : tensor<f16>
}

// -----

// CHECK-LABEL: func.func @reduce_max_f8E5M2(
// CHECK: "stablehlo.constant"() {value = dense<0xFC> : tensor<f8E5M2>} : () -> tensor<f8E5M2>
// CHECK: "stablehlo.maximum"
func.func @reduce_max_f8E5M2(%x: tensor<4xf8E5M2>) -> tensor<f8E5M2> {
  %0 = mlax.reduce_max %x, axes = [0] : tensor<4xf8E5M2> -> tensor<f8E5M2>
  return %0 : tensor<f8E5M2>
}

// -----

// CHECK-LABEL: func.func @reduce_sum_f8E4M3FN(
// CHECK: "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<f8E4M3FN>} : () -> tensor<f8E4M3FN>
// CHECK: "stablehlo.add"
func.func @reduce_sum_f8E4M3FN(%x: tensor<4xf8E4M3FN>) -> tensor<f8E4M3FN> {
  %0 = mlax.reduce_sum %x, axes = [0] : tensor<4xf8E4M3FN> -> tensor<f8E4M3FN>
  return %0 : tensor<f8E4M3FN>
}

// -----

// CHECK-LABEL: func.func @reduce_max_f8E4M3FN(
// CHECK: "stablehlo.constant"() {value = dense<-4.480000e+02> : tensor<f8E4M3FN>} : () -> tensor<f8E4M3FN>
// CHECK: "stablehlo.maximum"
func.func @reduce_max_f8E4M3FN(%x: tensor<4xf8E4M3FN>) -> tensor<f8E4M3FN> {
  %0 = mlax.reduce_max %x, axes = [0] : tensor<4xf8E4M3FN> -> tensor<f8E4M3FN>
  return %0 : tensor<f8E4M3FN>
}

// -----

// CHECK-LABEL: func.func @reduce_min_f8E4M3FN(
// CHECK: "stablehlo.constant"() {value = dense<4.480000e+02> : tensor<f8E4M3FN>} : () -> tensor<f8E4M3FN>
// CHECK: "stablehlo.minimum"
func.func @reduce_min_f8E4M3FN(%x: tensor<4xf8E4M3FN>) -> tensor<f8E4M3FN> {
  %0 = mlax.reduce_min %x, axes = [0] : tensor<4xf8E4M3FN> -> tensor<f8E4M3FN>
  return %0 : tensor<f8E4M3FN>
}

// -----

// CHECK-LABEL: func.func @reduce_max_f4E2M1FN(
// CHECK: "stablehlo.constant"() {value = dense<-6.000000e+00> : tensor<f4E2M1FN>} : () -> tensor<f4E2M1FN>
// CHECK: "stablehlo.maximum"
func.func @reduce_max_f4E2M1FN(%x: tensor<4xf4E2M1FN>) -> tensor<f4E2M1FN> {
  %0 = mlax.reduce_max %x, axes = [0] : tensor<4xf4E2M1FN> -> tensor<f4E2M1FN>
  return %0 : tensor<f4E2M1FN>
}

// -----

// CHECK-LABEL: func.func @reduce_min_f4E2M1FN(
// CHECK: "stablehlo.constant"() {value = dense<6.000000e+00> : tensor<f4E2M1FN>} : () -> tensor<f4E2M1FN>
// CHECK: "stablehlo.minimum"
func.func @reduce_min_f4E2M1FN(%x: tensor<4xf4E2M1FN>) -> tensor<f4E2M1FN> {
  %0 = mlax.reduce_min %x, axes = [0] : tensor<4xf4E2M1FN> -> tensor<f4E2M1FN>
  return %0 : tensor<f4E2M1FN>
}

// -----

// f8E8M0FNU has no sign, no zero and no infinity: reduce_max starts from its
// lowest value, 2^-127 (the all-zero bits); reduce_min from its highest.
// CHECK-LABEL: func.func @reduce_max_f8E8M0FNU(
// CHECK: "stablehlo.constant"() {value = dense<5.877470e-39> : tensor<f8E8M0FNU>} : () -> tensor<f8E8M0FNU>
// CHECK: "stablehlo.maximum"
func.func @reduce_max_f8E8M0FNU(%x: tensor<4xf8E8M0FNU>) -> tensor<f8E8M0FNU> {
  %0 = mlax.reduce_max %x, axes = [0] : tensor<4xf8E8M0FNU> -> tensor<f8E8M0FNU>
  return %0 : tensor<f8E8M0FNU>
}

// -----

// CHECK-LABEL: func.func @reduce_min_f8E8M0FNU(
// CHECK: "stablehlo.constant"() {value = dense<1.701410e+38> : tensor<f8E8M0FNU>} : () -> tensor<f8E8M0FNU>
// CHECK: "stablehlo.minimum"
func.func @reduce_min_f8E8M0FNU(%x: tensor<4xf8E8M0FNU>) -> tensor<f8E8M0FNU> {
  %0 = mlax.reduce_min %x, axes = [0] : tensor<4xf8E8M0FNU> -> tensor<f8E8M0FNU>
  return %0 : tensor<f8E8M0FNU>
}

// -----

// Zero in f8E8M0FNU is NaN, as XLA's and ml_dtypes' conversions make it (so
// its sum is NaN, as JAX's).
// CHECK-LABEL: func.func @reduce_sum_f8E8M0FNU(
// CHECK: "stablehlo.constant"() {value = dense<0xFF> : tensor<f8E8M0FNU>} : () -> tensor<f8E8M0FNU>
// CHECK: "stablehlo.add"
func.func @reduce_sum_f8E8M0FNU(%x: tensor<4xf8E8M0FNU>) -> tensor<f8E8M0FNU> {
  %0 = mlax.reduce_sum %x, axes = [0] : tensor<4xf8E8M0FNU> -> tensor<f8E8M0FNU>
  return %0 : tensor<f8E8M0FNU>
}

// -----

// ... and conversion to bool (x != 0) compares with that NaN: every value is true.
// CHECK-LABEL: func.func @to_bool_f8E8M0FNU(
// CHECK: %[[NAN:.*]] = "stablehlo.constant"() {value = dense<0xFF> : tensor<4xf8E8M0FNU>}
// CHECK: "stablehlo.compare"(%arg0, %[[NAN]]) {{.*}}comparison_direction NE
func.func @to_bool_f8E8M0FNU(%x: tensor<4xf8E8M0FNU>) -> tensor<4xi1> {
  %0 = mlax.convert %x : tensor<4xf8E8M0FNU> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// The sort comparator canonicalizes -0 and NaN only where the format has
// them: f4E2M1FN has no NaN, f8E8M0FNU no zero.
// CHECK-LABEL: func.func @sort_f4E2M1FN(
// CHECK: comparison_direction EQ
// CHECK-NOT: comparison_direction NE
// CHECK: comparison_type TOTALORDER
func.func @sort_f4E2M1FN(%x: tensor<4xf4E2M1FN>) -> tensor<4xf4E2M1FN> {
  %0 = mlax.sort %x {dimension = 0 : i64, is_stable = true, num_keys = 1 : i64} : (tensor<4xf4E2M1FN>) -> tensor<4xf4E2M1FN>
  return %0 : tensor<4xf4E2M1FN>
}

// -----

// CHECK-LABEL: func.func @sort_f8E8M0FNU(
// CHECK-NOT: comparison_direction EQ
// CHECK: comparison_direction NE
// CHECK: comparison_type TOTALORDER
func.func @sort_f8E8M0FNU(%x: tensor<4xf8E8M0FNU>) -> tensor<4xf8E8M0FNU> {
  %0 = mlax.sort %x {dimension = 0 : i64, is_stable = true, num_keys = 1 : i64} : (tensor<4xf8E8M0FNU>) -> tensor<4xf8E8M0FNU>
  return %0 : tensor<4xf8E8M0FNU>
}

// -----

// JAX's int4 and uint4 (i4, ui4) lower one to one.
// CHECK-LABEL: func.func @int4_ops(
// CHECK: "stablehlo.negate"(%arg0) : (tensor<4xi4>) -> tensor<4xi4>
// CHECK: "stablehlo.shift_right_logical"(%arg1, %arg1) : (tensor<4xui4>, tensor<4xui4>) -> tensor<4xui4>
// CHECK: "stablehlo.sign"(%arg0) : (tensor<4xi4>) -> tensor<4xi4>
// CHECK: "stablehlo.multiply"(%arg2, %arg2) : (tensor<4xi2>, tensor<4xi2>) -> tensor<4xi2>
func.func @int4_ops(%x: tensor<4xi4>, %y: tensor<4xui4>, %z: tensor<4xi2>)
    -> (tensor<4xi4>, tensor<4xui4>, tensor<4xi4>, tensor<4xi2>) {
  %0 = mlax.neg %x : tensor<4xi4>
  %1 = mlax.shift_right_logical %y, %y : tensor<4xui4>
  %2 = mlax.sign %x : tensor<4xi4>
  %3 = mlax.mul %z, %z : tensor<4xi2>
  return %0, %1, %2, %3 : tensor<4xi4>, tensor<4xui4>, tensor<4xi4>, tensor<4xi2>
}
