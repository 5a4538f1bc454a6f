// mlax.fft under mlax-autodiff. Its rules (MlaxFftOps.cpp) are JAX's: linear,
// the JVP is the same fft of the tangent, the transposes are FFT -> FFT,
// IFFT -> IFFT, RFFT -> real(FFT(zero-padded cotangent)) and IRFFT ->
// mask * IFFT(complex(cotangent))[..., :n/2+1]. Complex values carry
// (co)tangents, so derivatives flow through the complex values an fft makes.
// Regenerate the CHECK lines with tools/generate-test-checks.py and review them.
//
// RUN: mlax-opt %s --mlax-autodiff | FileCheck %s

// rfft then irfft, forward and reverse: the tangent goes through the same
// ffts; the cotangent through their transposes.
// CHECK-LABEL: func.func private @roundtrip_jvp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<8xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.fft RFFT %[[ARG0]], length = [8] : tensor<8xf32> -> tensor<5xcomplex<f32>>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.fft RFFT %[[ARG1]], length = [8] : tensor<8xf32> -> tensor<5xcomplex<f32>>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.fft IRFFT %[[V2]], length = [8] : tensor<5xcomplex<f32>> -> tensor<8xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.fft IRFFT %[[V3]], length = [8] : tensor<5xcomplex<f32>> -> tensor<8xf32>
// CHECK-NEXT: return %[[V4]], %[[V5]] : tensor<8xf32>, tensor<8xf32>
// CHECK-LABEL: func.func private @roundtrip_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<8xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.fft RFFT %[[ARG0]], length = [8] : tensor<8xf32> -> tensor<5xcomplex<f32>>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.fft IRFFT %[[V2]], length = [8] : tensor<5xcomplex<f32>> -> tensor<8xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.convert %[[ARG1]] : tensor<8xf32> -> tensor<8xcomplex<f32>>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.fft IFFT %[[V4]], length = [8] : tensor<8xcomplex<f32>> -> tensor<8xcomplex<f32>>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.slice %[[V5]], start = [0], limit = [5], strides = [1] : tensor<8xcomplex<f32>> -> tensor<5xcomplex<f32>>
// CHECK-NEXT: %[[V7:[^ ,:)]*]] = mlax.constant dense<[(1.000000e+00,0.000000e+00), (2.000000e+00,0.000000e+00), (2.000000e+00,0.000000e+00), (2.000000e+00,0.000000e+00), (1.000000e+00,0.000000e+00)]> : tensor<5xcomplex<f32>>
// CHECK-NEXT: %[[V8:[^ ,:)]*]] = mlax.broadcast_in_dim %[[V7]], dims = [0] : tensor<5xcomplex<f32>> -> tensor<5xcomplex<f32>>
// CHECK-NEXT: %[[V9:[^ ,:)]*]] = mlax.mul %[[V6]], %[[V8]] : tensor<5xcomplex<f32>>
// CHECK-NEXT: %[[V10:[^ ,:)]*]] = mlax.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
// CHECK-NEXT: %[[V11:[^ ,:)]*]] = mlax.pad %[[V9]], %[[V10]], low = [0], high = [3], interior = [0] : tensor<5xcomplex<f32>>, tensor<complex<f32>> -> tensor<8xcomplex<f32>>
// CHECK-NEXT: %[[V12:[^ ,:)]*]] = mlax.fft FFT %[[V11]], length = [8] : tensor<8xcomplex<f32>> -> tensor<8xcomplex<f32>>
// CHECK-NEXT: %[[V13:[^ ,:)]*]] = mlax.convert %[[V12]] : tensor<8xcomplex<f32>> -> tensor<8xf32>
// CHECK-NEXT: return %[[V3]], %[[V13]] : tensor<8xf32>, tensor<8xf32>
func.func private @roundtrip(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = mlax.fft RFFT %x, length = [8] : tensor<8xf32> -> tensor<5xcomplex<f32>>
  %1 = mlax.fft IRFFT %0, length = [8] : tensor<5xcomplex<f32>> -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func @jvp_through_fft(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r:2 = mlax.jvp @roundtrip(%x) tangents(%x) wrt = [0] : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %r#1 : tensor<8xf32>
}
func.func @vjp_through_fft(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r:2 = mlax.vjp @roundtrip(%x) cotangents(%x) wrt = [0] seeds = [0] : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %r#1 : tensor<8xf32>
}

// A complex FFT transposes to itself.
// CHECK-LABEL: func.func private @complex_fft_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4xcomplex<f32>>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4xcomplex<f32>>) -> (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.fft FFT %[[ARG0]], length = [4] : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.fft FFT %[[ARG1]], length = [4] : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>
func.func private @complex_fft(%z: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = mlax.fft FFT %z, length = [4] : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}
func.func @vjp_complex_fft(%z: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %r:2 = mlax.vjp @complex_fft(%z) cotangents(%z) wrt = [0] seeds = [0] : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>)
  return %r#1 : tensor<4xcomplex<f32>>
}

// A real value made complex and back: convert transposes to convert.
// CHECK-LABEL: func.func private @to_complex_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<4xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.convert %[[ARG0]] : tensor<4xf32> -> tensor<4xcomplex<f32>>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.convert %[[V2]] : tensor<4xcomplex<f32>> -> tensor<4xf32>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.convert %[[ARG1]] : tensor<4xf32> -> tensor<4xcomplex<f32>>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.convert %[[V4]] : tensor<4xcomplex<f32>> -> tensor<4xf32>
// CHECK-NEXT: return %[[V3]], %[[V5]] : tensor<4xf32>, tensor<4xf32>
func.func private @to_complex(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mlax.convert %x : tensor<4xf32> -> tensor<4xcomplex<f32>>
  %1 = mlax.convert %0 : tensor<4xcomplex<f32>> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func @vjp_through_convert(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r:2 = mlax.vjp @to_complex(%x) cotangents(%x) wrt = [0] seeds = [0] : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %r#1 : tensor<4xf32>
}

// The fft feeds only an unseeded (aux) result: no derivative code for it.
// CHECK-LABEL: func.func private @with_aux_vjp(
// CHECK-SAME: %[[ARG0:[^ ,:)]*]]: tensor<8xf32>,
// CHECK-SAME: %[[ARG1:[^ ,:)]*]]: tensor<8xf32>) -> (tensor<8xf32>, tensor<5xcomplex<f32>>, tensor<8xf32>
// CHECK-NEXT: %[[V2:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG0]] : tensor<8xf32>
// CHECK-NEXT: %[[V3:[^ ,:)]*]] = mlax.fft RFFT %[[ARG0]], length = [8] : tensor<8xf32> -> tensor<5xcomplex<f32>>
// CHECK-NEXT: %[[V4:[^ ,:)]*]] = mlax.mul %[[ARG1]], %[[ARG0]] : tensor<8xf32>
// CHECK-NEXT: %[[V5:[^ ,:)]*]] = mlax.mul %[[ARG0]], %[[ARG1]] : tensor<8xf32>
// CHECK-NEXT: %[[V6:[^ ,:)]*]] = mlax.add %[[V4]], %[[V5]] : tensor<8xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]], %[[V6]] : tensor<8xf32>, tensor<5xcomplex<f32>>, tensor<8xf32>
func.func private @with_aux(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<5xcomplex<f32>>) {
  %0 = mlax.mul %x, %x : tensor<8xf32>
  %1 = mlax.fft RFFT %x, length = [8] : tensor<8xf32> -> tensor<5xcomplex<f32>>
  return %0, %1 : tensor<8xf32>, tensor<5xcomplex<f32>>
}
func.func @vjp_aux_fft(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r:3 = mlax.vjp @with_aux(%x) cotangents(%x) wrt = [0] seeds = [0] : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<5xcomplex<f32>>, tensor<8xf32>)
  return %r#2 : tensor<8xf32>
}
