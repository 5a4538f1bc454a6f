// mlax.fft under mlax-autodiff. The fft's rules (MlaxFftOps.cpp) are JAX's:
// linear, the JVP is the same fft of the tangent, the transposes are FFT ->
// FFT, IFFT -> IFFT, RFFT -> real(FFT(zero-padded cotangent)) and IRFFT ->
// mask * IFFT(complex(cotangent))[..., :n/2+1]. But every fft has a complex
// operand or result, and complex values carry no (co)tangents in mlax yet
// (ad::isDifferentiableType), so a derivative that would flow through one is
// an error at the op that makes it rather than a silent zero. An fft the
// differentiated outputs do not depend on is fine.
//
// RUN: mlax-opt %s --split-input-file --mlax-autodiff --verify-diagnostics

func.func private @roundtrip(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'mlax.fft' op makes a complex value that the derivative flows through; mlax does not differentiate complex values yet}}
  %0 = mlax.fft RFFT %x, length = [8] : tensor<8xf32> -> tensor<5xcomplex<f32>>
  %1 = mlax.fft IRFFT %0, length = [8] : tensor<5xcomplex<f32>> -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func @jvp_through_fft(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r:2 = mlax.jvp @roundtrip(%x) tangents(%x) wrt = [0] : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %r#1 : tensor<8xf32>
}

// -----

func.func private @roundtrip(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'mlax.fft' op makes a complex value that the derivative flows through; mlax does not differentiate complex values yet}}
  %0 = mlax.fft RFFT %x, length = [8] : tensor<8xf32> -> tensor<5xcomplex<f32>>
  %1 = mlax.fft IRFFT %0, length = [8] : tensor<5xcomplex<f32>> -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func @vjp_through_fft(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r:2 = mlax.vjp @roundtrip(%x) cotangents(%x) wrt = [0] seeds = [0] : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %r#1 : tensor<8xf32>
}

// -----

// Making a complex value with convert is the same.
func.func private @to_complex(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlax.convert' op makes a complex value that the derivative flows through}}
  %0 = mlax.convert %x : tensor<4xf32> -> tensor<4xcomplex<f32>>
  %1 = mlax.convert %0 : tensor<4xcomplex<f32>> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func @vjp_through_convert(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r:2 = mlax.vjp @to_complex(%x) cotangents(%x) wrt = [0] seeds = [0] : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %r#1 : tensor<4xf32>
}

// -----

// The fft feeds only an unseeded (aux) result: no error.
func.func private @with_aux(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<5xcomplex<f32>>) {
  %0 = mlax.mul %x, %x : tensor<8xf32>
  %1 = mlax.fft RFFT %x, length = [8] : tensor<8xf32> -> tensor<5xcomplex<f32>>
  return %0, %1 : tensor<8xf32>, tensor<5xcomplex<f32>>
}
func.func @vjp_aux_fft(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r:3 = mlax.vjp @with_aux(%x) cotangents(%x) wrt = [0] seeds = [0] : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<5xcomplex<f32>>, tensor<8xf32>)
  return %r#2 : tensor<8xf32>
}
