"""mlax.scipy.special: as jax.scipy.special."""
from mlax._src.scipy.special import (  # noqa: F401
    bernoulli, beta, betainc, betaln, boxcox, boxcox1p, comb, dawsn, digamma, entr, erf, erfc,
    erfcx, erfinv, exp1, expi, expit, expn, factorial, gamma, gammainc, gammaincc, gammaln,
    gammasgn, i0, i0e, i1, i1e, kl_div, log_ndtr, log_softmax, loggamma, logit, logsumexp,
    multigammaln, ndtr, ndtri, poch, polygamma, rel_entr, sici, softmax, spence, xlog1py, xlogy,
    zeta)
