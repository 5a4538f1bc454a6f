"""mlax.numpy.fft: jax.numpy.fft over lax.fft."""
from mlax._src.numpy.fft import (  # noqa: F401
    fft, fft2, fftfreq, fftn, fftshift, hfft, ifft, ifft2, ifftn, ifftshift, ihfft, irfft,
    irfft2, irfftn, rfft, rfft2, rfftfreq, rfftn)

__all__ = ["fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn",
           "ifftn", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]


def _refuse_list_arguments():
    """As jax.numpy.fft's: the array given as a Python list or tuple raises
    TypeError (wrap it with mnp.array)."""
    import inspect

    from mlax._src.numpy.util import _refuse_lists
    g = globals()
    for fname in __all__:
        if fname in ("fftfreq", "rfftfreq"):
            continue
        first = next(iter(inspect.signature(g[fname]).parameters))
        g[fname] = _refuse_lists(g[fname], f"jax.numpy.fft.{fname}", (first,))


_refuse_list_arguments()
del _refuse_list_arguments
