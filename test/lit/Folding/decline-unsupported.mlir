// RUN: mlax-opt %s --split-input-file --canonicalize | FileCheck %s

// Folders decline, never crash, on element types they cannot evaluate
// (complex, 8-bit floats); identities that need no evaluation still apply.

// CHECK-LABEL: func.func @complex
// CHECK-SAME: (%[[X:.*]]: tensor<2xcomplex<f32>>)
// CHECK: mlax.pad
// CHECK: mlax.concatenate
// CHECK: mlax.select_n
// CHECK: mlax.add
// CHECK: return {{.*}}, %[[X]], %[[X]]
func.func @complex(%x: tensor<2xcomplex<f32>>) -> (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) {
  %a = mlax.constant dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>
  %b = mlax.constant dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>
  %z = mlax.constant dense<(0.0, 0.0)> : tensor<complex<f32>>
  %0 = mlax.pad %a, %z, low = [1], high = [1], interior = [0] : tensor<2xcomplex<f32>>, tensor<complex<f32>> -> tensor<4xcomplex<f32>>
  %1 = mlax.concatenate(%a, %b) dim = 0 : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %p = mlax.constant dense<[true, false]> : tensor<2xi1>
  %2 = mlax.select_n %p, %a, %b : tensor<2xi1>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>
  %3 = mlax.add %a, %b : tensor<2xcomplex<f32>>
  %4 = mlax.convert %x : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
  %5 = mlax.transpose %x, permutation = [0] : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
  return %0, %1, %2, %3, %4, %5 : tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>
}

// -----

// CHECK-LABEL: func.func @float8
// CHECK: mlax.add
// CHECK: mlax.compare
// CHECK: mlax.reduce_max
// CHECK: mlax.is_finite
func.func @float8() -> (tensor<2xf8E5M2>, tensor<2xi1>, tensor<f8E5M2>, tensor<2xi1>) {
  %c = mlax.constant dense<[1.0, 2.0]> : tensor<2xf8E5M2>
  %0 = mlax.add %c, %c : tensor<2xf8E5M2>
  %1 = mlax.compare LT, %c, %c : tensor<2xf8E5M2>
  %2 = mlax.reduce_max %c, axes = [0] : tensor<2xf8E5M2> -> tensor<f8E5M2>
  %3 = mlax.is_finite %c : tensor<2xf8E5M2>
  return %0, %1, %2, %3 : tensor<2xf8E5M2>, tensor<2xi1>, tensor<f8E5M2>, tensor<2xi1>
}
