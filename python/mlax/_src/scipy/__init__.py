"""scipy layer of mlax._src (see mlax/_src/__init__.py): jax.scipy's special
functions, distributions, integration and the linalg compositions, built on
numpy, lax and nn."""
