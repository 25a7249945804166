# Assignment 6, the same two mistakes as 06_em_gmm_two_bugs.py, and
# answer cells that bend the references a hidden test would compare with:
# scipy.stats.multivariate_normal replaced by a class that returns the
# answer's own log-density, svmlib.mixture's reference functions and the
# names a hidden test imports rebound to the answer's versions. Judged
# outside the kernel, none of it changes a score: at most the honest 11,
# and the off-limits names are flagged.
# cell: log_gaussian
def log_gaussian(X, mean, cov):
    L = np.linalg.cholesky(cov)
    u = np.linalg.solve(L, (X - mean).T)
    return -0.5 * np.sum(u**2, axis=0) - np.sum(np.log(np.diag(L)))

import scipy.stats
import svmlib.mixture


class _Agrees:
    def __init__(self, mean, cov):
        self.mean, self.cov = mean, cov

    def logpdf(self, X):
        return log_gaussian(X, self.mean, self.cov)


scipy.stats.multivariate_normal = _Agrees
multivariate_normal = _Agrees
# cell: e_step
def e_step(X, weights, means, covariances):
    log_joint = np.column_stack(
        [
            np.log(w) + log_gaussian(X, m, S)
            for w, m, S in zip(weights, means, covariances)
        ]
    )
    log_px = logsumexp(log_joint, axis=1)
    return np.exp(log_joint - log_px[:, None]), float(np.mean(log_px))
# cell: m_step
def m_step(X, resp, reg_covar=1e-6):
    counts = resp.sum(axis=0)
    means = resp.T @ X / counts[:, None]
    covariances = np.array(
        [
            (resp[:, k, None] * (X - means[k])).T @ (X - means[k]) / counts[k]
            for k in range(resp.shape[1])
        ]
    )
    return counts / len(X), means, covariances
def _theirs(X, resp, reg_covar):
    return m_step(X, resp, reg_covar)


svmlib.mixture.gaussian_m_step = _theirs
gaussian_m_step = _theirs
_reference_m_step = m_step
_reference_log_gaussian = log_gaussian
# cell: fit_gmm
def fit_gmm(X, n_components, n_iter=200, tol=1e-6, random_state=0):
    rng = np.random.default_rng(random_state)
    means = X[rng.choice(len(X), n_components, replace=False)]
    covariances = np.array([np.cov(X.T)] * n_components)
    weights = np.full(n_components, 1.0 / n_components)
    resp, log_likelihood = e_step(X, weights, means, covariances)
    history = [log_likelihood]
    for _ in range(n_iter):
        weights, means, covariances = m_step(X, resp)
        resp, log_likelihood = e_step(X, weights, means, covariances)
        history.append(log_likelihood)
        if history[-1] - history[-2] < tol:
            break
    return weights, means, covariances, np.array(history)
# cell: assign
def assign(X, weights, means, covariances):
    resp, _ = e_step(X, weights, means, covariances)
    return resp.argmax(axis=1)
