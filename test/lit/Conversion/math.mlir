// Lowering of the ops in MlaxMathOps.td: the special functions, clamp and
// top_k one to one to CHLO / StableHLO (XLA expands CHLO as it does for
// JAX); cumprod, cummax, cummin and cumlogsumexp as JAX lowers them, a
// reduce_window over the whole axis padded with the combiner's identity.
//
// RUN: mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo | FileCheck %s
// RUN: mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo | FileCheck %s --check-prefix=NOMLAX
// RUN: mlax-opt %s --allow-unregistered-dialect --convert-mlax-to-stablehlo | %PYTHON -m mlax.tools.compile_stablehlo --verify-only -
//
// NOMLAX-NOT: mlax.

// CHECK-LABEL: func.func @unary_chlo(
// CHECK: %[[A:.*]] = "chlo.sinh"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[B:.*]] = "chlo.cosh"(%[[A]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[C:.*]] = "chlo.asin"(%[[B]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[D:.*]] = "chlo.acos"(%[[C]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[E:.*]] = "chlo.atan"(%[[D]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[F:.*]] = "chlo.asinh"(%[[E]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[G:.*]] = "chlo.acosh"(%[[F]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[H:.*]] = "chlo.atanh"(%[[G]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[I:.*]] = "chlo.lgamma"(%[[H]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[J:.*]] = "chlo.digamma"(%[[I]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[K:.*]] = "chlo.erfc"(%[[J]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: "stablehlo.cbrt"(%[[K]]) : (tensor<4xf32>) -> tensor<4xf32>
func.func @unary_chlo(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.sinh %x : tensor<4xf32>
  %1 = mlax.cosh %0 : tensor<4xf32>
  %2 = mlax.asin %1 : tensor<4xf32>
  %3 = mlax.acos %2 : tensor<4xf32>
  %4 = mlax.atan %3 : tensor<4xf32>
  %5 = mlax.asinh %4 : tensor<4xf32>
  %6 = mlax.acosh %5 : tensor<4xf32>
  %7 = mlax.atanh %6 : tensor<4xf32>
  %8 = mlax.lgamma %7 : tensor<4xf32>
  %9 = mlax.digamma %8 : tensor<4xf32>
  %10 = mlax.erfc %9 : tensor<4xf32>
  %11 = mlax.cbrt %10 : tensor<4xf32>
  return %11 : tensor<4xf32>
}

// CHECK-LABEL: func.func @popcnt(
// CHECK: "stablehlo.popcnt"(%arg0) : (tensor<3xui8>) -> tensor<3xui8>
func.func @popcnt(%x: tensor<3xui8>) -> tensor<3xui8> {
  %0 = mlax.popcnt %x : tensor<3xui8>
  return %0 : tensor<3xui8>
}

// CHECK-LABEL: func.func @binary_chlo(
// CHECK: %[[P:.*]] = "chlo.polygamma"(%arg0, %arg1) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
// CHECK: "chlo.zeta"(%[[P]], %arg1) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
func.func @binary_chlo(%m: tensor<3xf64>, %x: tensor<3xf64>) -> tensor<3xf64> {
  %0 = mlax.polygamma %m, %x : tensor<3xf64>
  %1 = mlax.zeta %0, %x : tensor<3xf64>
  return %1 : tensor<3xf64>
}

// CHECK-LABEL: func.func @clamp(
// CHECK: "stablehlo.clamp"(%arg0, %arg1, %arg2) : (tensor<f32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @clamp(%lo: tensor<f32>, %x: tensor<2x3xf32>, %hi: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = mlax.clamp %lo, %x, %hi : tensor<f32>, tensor<2x3xf32>, tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @top_k(
// CHECK: "chlo.top_k"(%arg0) {k = 2 : i64} : (tensor<3x5xf32>) -> (tensor<3x2xf32>, tensor<3x2xi32>)
func.func @top_k(%x: tensor<3x5xf32>) -> (tensor<3x2xf32>, tensor<3x2xi32>) {
  %v, %i = mlax.top_k %x, k = 2 : tensor<3x5xf32> -> tensor<3x2xf32>, tensor<3x2xi32>
  return %v, %i : tensor<3x2xf32>, tensor<3x2xi32>
}

// cumprod: padded on the low side (high when reversed) with ones.
// CHECK-LABEL: func.func @cumprod(
// CHECK: %[[ONE:.*]] = "stablehlo.constant"() {value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
// CHECK: "stablehlo.reduce_window"(%arg0, %[[ONE]]) ({
// CHECK: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
// CHECK: %[[M:.*]] = "stablehlo.multiply"(%[[A]], %[[B]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: "stablehlo.return"(%[[M]]) : (tensor<f32>) -> ()
// CHECK: }) {base_dilations = array<i64: 1, 1>, padding = dense<{{\[\[}}0, 0], [3, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 4>, window_strides = array<i64: 1, 1>} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
func.func @cumprod(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = mlax.cumprod %x, axis = 1 : tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @cummax_reverse(
// CHECK: %[[LOW:.*]] = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
// CHECK: "stablehlo.reduce_window"(%arg0, %[[LOW]])
// CHECK: "stablehlo.maximum"
// CHECK: padding = dense<{{\[\[}}0, 2], [0, 0]]> : tensor<2x2xi64>{{.*}}window_dimensions = array<i64: 3, 1>
func.func @cummax_reverse(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %0 = mlax.cummax %x, axis = 0 reverse : tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// Integers start from the largest (cummin) or smallest (cummax) value.
// CHECK-LABEL: func.func @cummin_int(
// CHECK: %[[HIGH:.*]] = "stablehlo.constant"() {value = dense<2147483647> : tensor<i32>} : () -> tensor<i32>
// CHECK: "stablehlo.reduce_window"(%arg0, %[[HIGH]])
// CHECK: "stablehlo.minimum"
// CHECK: %[[UMIN:.*]] = "stablehlo.constant"() {value = dense<0> : tensor<ui8>} : () -> tensor<ui8>
// CHECK: "stablehlo.reduce_window"(%arg1, %[[UMIN]])
// CHECK: "stablehlo.maximum"
func.func @cummin_int(%x: tensor<4xi32>, %u: tensor<4xui8>) -> (tensor<4xi32>, tensor<4xui8>) {
  %0 = mlax.cummin %x, axis = 0 : tensor<4xi32>
  %1 = mlax.cummax %u, axis = 0 : tensor<4xui8>
  return %0, %1 : tensor<4xi32>, tensor<4xui8>
}

// cumlogsumexp combines with jax's logaddexp (NaN from inf - inf falls back
// to a + b), starting from -inf.
// CHECK-LABEL: func.func @cumlogsumexp(
// CHECK: %[[NINF:.*]] = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
// CHECK: "stablehlo.reduce_window"(%arg0, %[[NINF]])
// CHECK: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
// CHECK: %[[MAX:.*]] = "stablehlo.maximum"(%[[A]], %[[B]])
// CHECK: %[[D:.*]] = "stablehlo.subtract"(%[[A]], %[[B]])
// CHECK: %[[NAN:.*]] = "stablehlo.compare"(%[[D]], %[[D]]) {{.*}}NE
// CHECK: %[[ABS:.*]] = "stablehlo.abs"(%[[D]])
// CHECK: %[[NEG:.*]] = "stablehlo.negate"(%[[ABS]])
// CHECK: %[[EXP:.*]] = "stablehlo.exponential"(%[[NEG]])
// CHECK: %[[L1P:.*]] = "stablehlo.log_plus_one"(%[[EXP]])
// CHECK: %[[SUM:.*]] = "stablehlo.add"(%[[A]], %[[B]])
// CHECK: %[[R:.*]] = "stablehlo.add"(%[[MAX]], %[[L1P]])
// CHECK: %[[SEL:.*]] = "stablehlo.select"(%[[NAN]], %[[SUM]], %[[R]])
// CHECK: "stablehlo.return"(%[[SEL]])
func.func @cumlogsumexp(%x: tensor<5xf32>) -> tensor<5xf32> {
  %0 = mlax.cumlogsumexp %x, axis = 0 : tensor<5xf32>
  return %0 : tensor<5xf32>
}

// An empty axis has nothing to combine (XLA rejects empty windows).
// CHECK-LABEL: func.func @cumprod_empty(
// CHECK-NEXT: return %arg0 : tensor<0x3xf32>
func.func @cumprod_empty(%x: tensor<0x3xf32>) -> tensor<0x3xf32> {
  %0 = mlax.cumprod %x, axis = 0 : tensor<0x3xf32>
  return %0 : tensor<0x3xf32>
}
