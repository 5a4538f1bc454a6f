//===- MlaxFftOps.td - fast Fourier transforms -----------------------------===//
//
// mlax.fft, lax.fft's primitive: FFT/IFFT (complex -> complex), RFFT (real ->
// complex, the last dimension shrinks to n/2 + 1) and IRFFT (complex -> real,
// the last dimension grows to fft_length's last entry) over the trailing
// len(fft_length) dimensions. Shape rule (`inferReturnTypes`), derivative and
// batching rules:
// MlaxFftOps.cpp; lowering (stablehlo.fft): passes/ConvertFftOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MLAX_FFT_OPS_TD
#define MLAX_FFT_OPS_TD

def Mlax_FftType : I32EnumAttr<"FftType",
    "the transform a `mlax.fft` computes (stablehlo's fft_type)", [
      I32EnumAttrCase<"FFT", 0>, I32EnumAttrCase<"IFFT", 1>,
      I32EnumAttrCase<"RFFT", 2>, I32EnumAttrCase<"IRFFT", 3>]> {
  let cppNamespace = "::mlir::mlax";
}

def Mlax_FftOp : Mlax_Op<"fft", [Pure, InferTypeOpAdaptor, Mlax_Derivative, Mlax_Batching]> {
  let summary = "fast Fourier transform over the trailing dimensions (lax.fft)";
  let description = [{
    `fft_length` holds one to three lengths, those of the transformed
    trailing dimensions. FFT and IFFT map complex to complex of the same
    shape; RFFT maps a real tensor whose trailing dimensions are
    `fft_length` to a complex one whose last dimension is
    `fft_length[-1] / 2 + 1`; IRFFT is its inverse, complex to real.
    IFFT and IRFFT scale by 1 / prod(fft_length), as numpy does.
    ```mlir
    %y = mlax.fft RFFT %x, length = [8] : tensor<3x8xf32> -> tensor<3x5xcomplex<f32>>
    ```
  }];
  let arguments = (ins Mlax_FftType:$fft_type, Mlax_FloatTensor:$operand,
                       DenseI64ArrayAttr:$fft_length);
  let results = (outs Mlax_FloatTensor:$result);
  let assemblyFormat = [{
    $fft_type $operand `,` `length` `=` $fft_length attr-dict `:` type($operand)
    `->` type($result)
  }];
}

#endif // MLAX_FFT_OPS_TD
