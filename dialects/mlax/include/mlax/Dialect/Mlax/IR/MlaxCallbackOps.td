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
