"""Effective sample sizes of Markov chain draws, from their autocorrelation, and 95% bars.

For each statistic (an indicator such as "N holds at least two r7", or a count), the draws of
M chains are split in halves (2M chains: a chain that drifts shows as halves that disagree),
and the effective sample size is the multi-chain estimate of Stan and ArviZ (Vehtari et al.
2021, without rank normalisation): the variance var+ mixes the within-chain variance W and the
variance of the chain means; the autocorrelation at lag t is 1 - (W - mean autocovariance at
t) / var+; pairs of lags are summed while positive (Geyer's initial positive sequence) and
made non-increasing (initial monotone sequence); tau = -1 + 2 x their sum; ESS = draws / tau,
at most the number of draws. Chains that never meet give a large var+ and a small ESS: the
bars widen instead of claiming what the chains did not show.
"""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.96


def split(draws: np.ndarray) -> np.ndarray:
    """(chains, n, ...) -> (2 chains, n // 2, ...): each chain's halves."""
    half = draws.shape[1] // 2
    return np.concatenate([draws[:, :half], draws[:, half:2 * half]], axis=0)


def ess(series: np.ndarray) -> np.ndarray:
    """Per statistic, the effective sample size of (chains, n, statistics) draws (already
    split); NaN where every draw is the same (nothing to estimate)."""
    m, n, _ = series.shape
    x = series.astype(np.float64)
    centred = x - x.mean(axis=1, keepdims=True)
    size = 1 << (2 * n - 1).bit_length()
    spectrum = np.fft.rfft(centred, n=size, axis=1)
    acov = np.fft.irfft(spectrum * np.conj(spectrum), n=size, axis=1)[:, :n] / n
    mean_var = acov[:, 0].mean(axis=0) * n / (n - 1)
    var_plus = mean_var * (n - 1) / n
    if m > 1:
        var_plus = var_plus + x.mean(axis=1).var(axis=0, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = 1.0 - (mean_var[None, :] - acov.mean(axis=0)) / var_plus[None, :]
    pairs = n // 2
    sums = rho[0:2 * pairs:2] + rho[1:2 * pairs:2]
    positive = np.cumprod(sums > 0, axis=0).astype(bool)
    monotone = np.minimum.accumulate(np.where(positive, sums, 0.0), axis=0)
    tau = -1.0 + 2.0 * np.where(positive, monotone, 0.0).sum(axis=0)
    total = m * n
    tau = np.maximum(tau, 1.0 / math.log10(total)) if total > 10 else np.maximum(tau, 1.0)
    out = np.minimum(total / tau, float(total))
    out[~(var_plus > 0)] = np.nan
    return out


def wilson(p: float, n: float) -> float:
    """Half-width (the larger side) of the Wilson 95% interval around p from n draws."""
    if n <= 0:
        return 1.0
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    spread = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(centre + spread - p, p - (centre - spread))


def headline(values: np.ndarray, means: np.ndarray, total: int) -> float:
    """The ESS an estimate reports: the smallest over its probabilities the draws put between
    0.05 and 0.95 (else over any that vary; else every draw counts: nothing varied)."""
    varied = ~np.isnan(values)
    middle = varied & (means >= 0.05) & (means <= 0.95)
    for pick in (middle, varied):
        if pick.any():
            return float(values[pick].min())
    return float(total)
