//===- MlaxRandomOps.td - XLA's stateless random bit generator ------------===//
//
// mlax.rng_bit_generator, lax.rng_bit_generator's primitive: XLA's
// RngBitGenerator (the rbg and unsafe_rbg PRNG implementations draw their
// bits from it; threefry2x32 keys are hashed with mlax's integer ops
// instead). Verifier and batching rule: MlaxRandomOps.cpp; lowering
// (stablehlo.rng_bit_generator): passes/ConvertRandomOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MLAX_RANDOM_OPS_TD
#define MLAX_RANDOM_OPS_TD

def Mlax_RngAlgorithm : I32EnumAttr<"RngAlgorithm",
    "the algorithm of a `mlax.rng_bit_generator` (stablehlo's rng_algorithm; "
    "lax.RandomAlgorithm's values)", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"THREE_FRY", 1>,
      I32EnumAttrCase<"PHILOX", 2>]> {
  let cppNamespace = "::mlir::mlax";
}

// Pure: the bits are a function of the key (XLA's generator is stateless),
// so CSE and DCE may treat it as any other op; it has no folder (XLA owns
// the algorithms). Its results are unsigned integers, which carry no
// tangent, so it needs no derivative rule: mlax-autodiff never asks.
def Mlax_RngBitGeneratorOp : Mlax_Op<"rng_bit_generator", [Pure,
    AllTypesMatch<["key", "new_key"]>, Mlax_Batching]> {
  let summary = "uniform random bits and the next key (lax.rng_bit_generator)";
  let description = [{
    The key is a `tensor<4xui32>` (what jax passes; lowered as the
    `tensor<2xui64>` XLA takes) or a `tensor<2xui64>`; the new key has its
    type. `bits` is a statically shaped tensor of ui8, ui16, ui32 or ui64
    whose shape is the requested one. `algorithm` is XLA's: DEFAULT (the
    platform's choice), THREE_FRY or PHILOX.
    ```mlir
    %new_key, %bits = mlax.rng_bit_generator THREE_FRY %key
        : tensor<4xui32> -> tensor<2x3xui8>
    ```
  }];
  let arguments = (ins Mlax_RngAlgorithm:$algorithm, Mlax_Tensor:$key);
  let results = (outs Mlax_Tensor:$new_key, Mlax_Tensor:$bits);
  let assemblyFormat = "$algorithm $key attr-dict `:` type($key) `->` type($bits)";
  let hasVerifier = 1;
}

#endif // MLAX_RANDOM_OPS_TD
