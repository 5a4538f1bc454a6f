//===- MlaxRandomOps.td - XLA's random number generators ------------------===//
//
// mlax.rng_bit_generator, lax.rng_bit_generator's primitive: XLA's
// stateless RngBitGenerator (the rbg and unsafe_rbg PRNG implementations
// draw their bits from it; threefry2x32 keys are hashed with mlax's integer
// ops instead); and mlax.rng_uniform, lax.rng_uniform's: XLA's stateful
// RngUniform. Verifiers and batching rule: MlaxRandomOps.cpp; lowerings
// (stablehlo.rng_bit_generator, stablehlo.rng): passes/ConvertRandomOps.cpp.
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

// Not pure: XLA's generator keeps a state that each draw advances, so two
// draws differ and neither may be merged with the other (CSE) or dropped.
// JAX gives it neither a derivative nor a batching rule (its
// NotImplementedError), and neither does mlax: the passes report that.
def Mlax_RngUniformOp : Mlax_Op<"rng_uniform", [MemoryEffects<[MemRead, MemWrite]>,
    AllTypesMatch<["a", "b"]>]> {
  let summary = "uniform random numbers in [a, b) from XLA's stateful generator (lax.rng_uniform)";
  let description = [{
    `a` and `b` are scalars of one type; the result has their element type
    and the requested static shape. The element type is one XLA's RngUniform
    expander handles: f16, bf16, f32, f64, i32, i64, ui32 or ui64 (on others
    XLA's CPU compiler aborts the process).
    Where `b <= a` the values are XLA's choice. Each execution draws anew.
    ```mlir
    %r = mlax.rng_uniform %a, %b : tensor<f32> -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins 0DTensorOf<[Mlax_Element]>:$a, 0DTensorOf<[Mlax_Element]>:$b);
  let results = (outs Mlax_Tensor:$result);
  let assemblyFormat = "$a `,` $b attr-dict `:` type($a) `->` type($result)";
  let hasVerifier = 1;
}

#endif // MLAX_RANDOM_OPS_TD
