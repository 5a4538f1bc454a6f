"""The mlax demo: jit-compile a function, show its mlax IR and its StableHLO,
and check the numbers against NumPy."""
import numpy as np

import mlax
import mlax.numpy as mnp


def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * mnp.where(x > 0, x, alpha * mnp.exp(x) - alpha)


def normalise_rows(X):
    return (X - X.mean(0)) / X.std(0)


def main():
    selu_jit = mlax.jit(selu)
    print("selu(1.0) =", selu_jit(1.0))
    x = mnp.arange(-2.0, 3.0)
    print("selu(", x, ") =", selu_jit(x))

    print("\n--- the mlax dialect, as traced (mlax.make_ir) ---")
    print(mlax.make_ir(selu)(x))
    print("--- after mlax's passes, as StableHLO (jit(f).lower(x).as_text()) ---")
    print(selu_jit.lower(x).as_text())

    X = np.random.default_rng(0).random((10000, 10), dtype=np.float32)
    out = mlax.jit(normalise_rows)(X)
    ref = (X - X.mean(0)) / X.std(0)
    print("row normalisation of a 10000x10 array: max |mlax - numpy| =",
          float(np.abs(np.asarray(out) - ref).max()))
    print("column means after normalisation:", np.round(np.asarray(out).mean(0), 6))

    print("\nmatmul:", mlax.jit(lambda a, b: a @ b)(mnp.ones((2, 3)), mnp.arange(6.0).reshape(3, 2)))


if __name__ == "__main__":
    main()
