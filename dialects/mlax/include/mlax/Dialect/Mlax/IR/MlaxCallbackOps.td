//===- MlaxCallbackOps.td - host (Python) callbacks -----------*- tablegen -*-===//
//
// `mlax.host_callback`: a call from the compiled program back into a Python
// function on the host, which is how `debug.print`, `debug.callback`,
// `pure_callback` and `io_callback` work. Included from MlaxOps.td.
//
//===----------------------------------------------------------------------===//

def Mlax_HostCallbackOp : Mlax_Op<"host_callback",
    [MemoryEffects<[MemRead, MemWrite]>, Mlax_Derivative, Mlax_Batching]> {
  let summary = "call a Python function on the host";
  let description = [{
    Calls entry `callback` of the program's table of host callables (kept
    by the Python tracer next to the module and handed to XLA at compile
    time) on `operands`, giving `results`. It has side effects, so it is
    never erased, merged or hoisted. `kind` picks the JAX semantics:

    * `debug` (`debug.callback`, `debug.print`): no results; forward mode
      calls it on the primals, reverse mode has nothing to pull back;
      batching calls it once per batch element, unrolled in element order.
    * `pure` (`pure_callback`): has no derivative (an error, as in JAX);
      batching follows `vmap_method`: `sequential` becomes an `mlax.scan`
      over the batch whose body calls it on one element (JAX's `lax.map`),
      `sequential_unrolled` unrolls those calls, `expand_dims` makes one
      call with unbatched operands given a size-1 leading dimension,
      `broadcast_all` one call with them broadcast to the batch size.
    * `io` (`io_callback`): no derivative; batching calls it once per
      element (an `mlax.scan` over the batch when it has results, unrolled
      when it has none), and is an error when `ordered`.

    ```mlir
    mlax.host_callback %x {callback = 0 : i64, kind = "debug"} : (tensor<3xf32>) -> ()
    %y = mlax.host_callback %x {callback = 1 : i64, kind = "pure", vmap_method = "sequential"}
        : (tensor<3xf32>) -> tensor<3xf32>
    ```
    Lowered to `stablehlo.custom_call @xla_ffi_python_cpu_callback` with
    `backend_config = {index = callback : ui64}`.
  }];
  let arguments = (ins Variadic<Mlax_Tensor>:$operands, I64Attr:$callback,
                       StrAttr:$kind, OptionalAttr<StrAttr>:$vmap_method,
                       UnitAttr:$ordered);
  let results = (outs Variadic<Mlax_Tensor>:$results);
  let assemblyFormat = "$operands attr-dict `:` functional-type($operands, results)";
  let hasVerifier = 1;
}

def Mlax_FfiCallOp : Mlax_Op<"ffi_call",
    [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>, Mlax_Derivative, Mlax_Batching]> {
  let summary = "call a foreign function registered with XLA (jax.ffi.ffi_call)";
  let description = [{
    Calls the XLA custom-call target `target_name` (registered in the
    process, e.g. with `jax.ffi.register_ffi_target`) on `operands`, giving
    `results`. `api_version` is the custom-call API the target implements:
    4 (the default) is XLA's typed FFI, whose named attributes are the
    `backend_config` dictionary; versions 0-3 are the legacy APIs, whose
    `backend_config`, if any, is an opaque string.

    * `has_side_effect`: the call is never erased, merged or hoisted;
      without it the op has no memory effects (an unused call is dropped,
      identical calls merged), as JAX's.
    * `operand_layouts` / `result_layouts`: one minor-to-major dimension
      order per operand / result (row-major when absent).
    * `input_output_aliases`: pairs `[operand, result, ...]`: that result
      reuses that operand's buffer.
    * `vmap_method` picks the batching rule (jax/_src/ffi.py
      ffi_batching_rule): `sequential` is an `mlax.scan` over the batch
      whose body makes one call on one element, `sequential_unrolled` one
      call per element, `expand_dims` one call with unbatched operands given
      a size-1 leading dimension, `broadcast_all` one call with them
      broadcast to the batch size, `legacy_vectorized` one call on the
      operands as they are. Without it batching is an error, as is any
      derivative (JAX's: wrap the call in custom_jvp / custom_vjp).

    ```mlir
    %y = mlax.ffi_call "rms_norm"(%x) {backend_config = {eps = 1.0e-05 : f32},
        vmap_method = "broadcast_all"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    ```
    Lowered to `stablehlo.custom_call @target_name` as JAX emits it.
  }];
  let arguments = (ins Variadic<Mlax_Tensor>:$operands, StrAttr:$target_name,
                       OptionalAttr<AnyAttrOf<[DictionaryAttr, StrAttr]>>:$backend_config,
                       DefaultValuedAttr<I32Attr, "4">:$api_version,
                       UnitAttr:$has_side_effect, OptionalAttr<StrAttr>:$vmap_method,
                       OptionalAttr<ArrayAttr>:$operand_layouts,
                       OptionalAttr<ArrayAttr>:$result_layouts,
                       OptionalAttr<DenseI64ArrayAttr>:$input_output_aliases);
  let results = (outs Variadic<Mlax_Tensor>:$results);
  let assemblyFormat = [{
    $target_name `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
  let extraClassDeclaration = [{
    /// The minor-to-major layout of operand / result `i` (row-major when the
    /// op has no layouts).
    ::llvm::SmallVector<int64_t> getOperandLayout(unsigned i);
    ::llvm::SmallVector<int64_t> getResultLayout(unsigned i);
  }];
  let hasVerifier = 1;
}
