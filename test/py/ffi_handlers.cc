// FFI handlers the tests of mlax.ffi (test_ffi.py) compile at test time
// against the headers of jaxlib (mlax.ffi.include_dir()).

#include <cmath>
#include <cstdint>
#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

// The FFI tutorial's rms_norm: each row of the last axis divided by its
// root mean square, `eps` added under the root.
static ffi::Error RmsNormImpl(float eps, ffi::Buffer<ffi::F32> x,
                              ffi::ResultBuffer<ffi::F32> y) {
  auto dims = x.dimensions();
  if (dims.size() == 0)
    return ffi::Error::InvalidArgument("RmsNorm input must be an array");
  int64_t total = x.element_count(), last = dims.back();
  for (int64_t n = 0; n < total; n += last) {
    float sm = 0.0f;
    for (int64_t i = 0; i < last; ++i) sm += x.typed_data()[n + i] * x.typed_data()[n + i];
    float scale = 1.0f / std::sqrt(sm / float(last) + eps);
    for (int64_t i = 0; i < last; ++i) y->typed_data()[n + i] = x.typed_data()[n + i] * scale;
  }
  return ffi::Error::Success();
}
XLA_FFI_DEFINE_HANDLER_SYMBOL(RmsNorm, RmsNormImpl,
                              ffi::Ffi::Bind()
                                  .Attr<float>("eps")
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>());

// Two results and an integer attribute: y = k * x + sum(b) and, over the
// flat buffer, n[j] = k + j (so a call on a whole batch and one call per
// element give different n, as in JAX).
static ffi::Error AffineImpl(int64_t k, ffi::Buffer<ffi::F32> x, ffi::Buffer<ffi::F32> b,
                             ffi::ResultBuffer<ffi::F32> y, ffi::ResultBuffer<ffi::S32> n) {
  float sb = 0.0f;
  for (int64_t i = 0; i < (int64_t)b.element_count(); ++i) sb += b.typed_data()[i];
  for (int64_t i = 0; i < (int64_t)x.element_count(); ++i) {
    y->typed_data()[i] = float(k) * x.typed_data()[i] + sb;
    n->typed_data()[i] = int32_t(k + i);
  }
  return ffi::Error::Success();
}
XLA_FFI_DEFINE_HANDLER_SYMBOL(Affine, AffineImpl,
                              ffi::Ffi::Bind()
                                  .Attr<int64_t>("k")
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::S32>>());

// Counts its calls (a side effect the test reads with calls_made()).
static int32_t calls = 0;
static ffi::Error CountImpl(ffi::Buffer<ffi::F32> x, ffi::ResultBuffer<ffi::S32> y) {
  (void)x;
  y->typed_data()[0] = ++calls;
  return ffi::Error::Success();
}
XLA_FFI_DEFINE_HANDLER_SYMBOL(Count, CountImpl,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::S32>>());

extern "C" int32_t calls_made() { return calls; }
