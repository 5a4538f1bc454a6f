"""mlax.scipy.special: as jax.scipy.special."""
from mlax._src.scipy.special import (  # noqa: F401
    bernoulli, bessel_jn, beta, betainc, betaln, boxcox, boxcox1p, comb, dawsn, digamma, entr,
    erf, erfc, erfcx, erfinv, exp1, expi, expit, expn, factorial, fresnel, gamma, gammainc,
    gammaincc, gammaln, gammasgn, hyp1f1, hyp2f1, i0, i0e, i1, i1e, kl_div, log_ndtr,
    log_softmax, loggamma, logit, logsumexp, multigammaln, ndtr, ndtri, owens_t, poch,
    polygamma, rel_entr, sici, softmax, spence, sph_harm_y, wofz, xlog1py, xlogy, zeta)
