"""Problems and certificates for tests/test_differential.py.

The differential test fits svmlib and scikit-learn (LIBSVM, LIBLINEAR) on
the same problem and judges both models by quantities computed here, from
their fitted attributes and a Gram matrix computed here, rather than by
what either library reports about itself.

SVC (the C-SVC dual of each one-vs-one machine, K positive semidefinite):

    D(alpha) = sum_i alpha_i - 1/2 v^T K v,   v = alpha * y,
    P(w, b)  = 1/2 v^T K v + sum_i C_i max(0, 1 - y_i f(x_i)),
    f(x_i)   = (K v)_i + b.

For a feasible alpha (0 <= alpha_i <= C_i, sum_i alpha_i y_i = 0) weak
duality gives D(alpha) <= D* = P* <= P(w, b) for any b, so the optimum D*
lies in [D(alpha), P(w_alpha, b)] for each model: the two intervals must
meet. The gap g = P - D with the model's own b is at most tol * sum_i C_i
when the maximal violation m(alpha) - M(alpha) is at most tol and b lies in
[M, m] (each point contributes alpha_i max(0, y_i f_i - 1) +
(C_i - alpha_i) max(0, 1 - y_i f_i) <= C_i tol). The primal is 1-strongly
convex in w, so ||w - w*||^2 <= 2 g; with K positive definite the dual is
lambda_min-strongly concave, so ||alpha - alpha*||^2 <= 2 g / lambda_min.
"""

from dataclasses import dataclass, replace

import numpy as np

#: Relative size of the rounding allowed in the certificates: the kernel
#: values of each library differ from ours in their last bits (a power of
#: degree p multiplies the relative error by p), and the sums here have at
#: most a few hundred terms.
ROUNDING = 1e-9


# ---------------------------------------------------------------------------
# Problems
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """A classification problem described by a few numbers.

    ``build()`` makes X, y and the sample weights from them, so that a
    failing case is reproduced by its ``repr`` alone. ``data`` is
    "random" (Gaussian classes around random centres), "issue_200x10" or
    "issue_40x3" (issue 24's reproducers: ``RandomState(0).randn(n, d)``,
    y = x_0 + x_1^2 > 1) or "breast_cancer" (raw, unscaled).
    """

    data: str = "random"
    n: int = 30
    d: int = 3
    n_classes: int = 2
    seed: int = 0
    separation: float = 2.0
    imbalance: float = 1.0  # class c gets a share proportional to this^c
    same_duplicates: int = 0  # rows repeated with their own label
    opposite_duplicates: int = 0  # rows repeated with another label
    weights: str = "none"  # "none", "random", "zeros", "integers"
    scale: float = 1.0

    def build(self):
        """X (float64), y (int labels), sample_weight (ndarray or None)."""
        rng = np.random.RandomState(self.seed)
        if self.data == "breast_cancer":
            from sklearn.datasets import load_breast_cancer

            X, y = load_breast_cancer(return_X_y=True)
        elif self.data.startswith("issue_"):
            n, d = (int(k) for k in self.data[6:].split("x"))
            X = np.random.RandomState(0).randn(n, d)
            y = (X[:, 0] + X[:, 1] ** 2 > 1).astype(int)
        else:
            X, y = self._random_classes(rng)
        X, y = self._duplicates(rng, X, y)
        weight = self._weights(rng, y)
        return X * self.scale, y, weight

    def _random_classes(self, rng):
        k = self.n_classes
        share = self.imbalance ** np.arange(k)
        counts = np.maximum(2, np.floor(share / share.sum() * self.n))
        y = np.repeat(np.arange(k), counts.astype(int))
        centres = rng.randn(k, self.d) * self.separation
        return centres[y] + rng.randn(y.size, self.d), y

    def _duplicates(self, rng, X, y):
        rows = rng.randint(y.size, size=self.same_duplicates)
        X, y = np.vstack([X, X[rows]]), np.concatenate([y, y[rows]])
        classes = np.unique(y)
        rows = rng.randint(y.size, size=self.opposite_duplicates)
        shift = rng.randint(1, classes.size, size=rows.size)
        position = np.searchsorted(classes, y[rows]) + shift
        other = classes[position % classes.size]
        return np.vstack([X, X[rows]]), np.concatenate([y, other])

    def _weights(self, rng, y):
        if self.weights == "none":
            return None
        if self.weights == "integers":
            return rng.randint(1, 4, size=y.size).astype(float)
        weight = rng.uniform(0.1, 3.0, size=y.size)
        if self.weights == "zeros":
            weight[rng.rand(y.size) < 0.3] = 0.0
            for c in np.unique(y):  # every class keeps a positive weight
                weight[np.flatnonzero(y == c)[0]] = 1.0
        return weight

    def rescaled(self):
        """The same problem with the features at scale 1."""
        return replace(self, scale=1.0)


@dataclass(frozen=True)
class Kernel:
    """A kernel and its parameters as both libraries take them.

    ``gamma_mode="relative"``: gamma = gamma_value / (d scale^2), the same
    kernel matrix at every feature scale (as gamma="scale" would give);
    "absolute": gamma = gamma_value. "precomputed" passes the linear Gram
    matrix computed here to both libraries.
    """

    name: str = "rbf"
    gamma_value: float = 1.0
    gamma_mode: str = "relative"
    degree: int = 3
    coef0: float = 0.0

    def gamma(self, d, scale):
        if self.gamma_mode == "absolute":
            return float(self.gamma_value)
        return float(self.gamma_value / d / scale / scale)

    def params(self, d, scale):
        """Keyword arguments of SVC (svmlib's and scikit-learn's)."""
        if self.name in ("linear", "precomputed"):
            return {"kernel": self.name}
        params = {"kernel": self.name, "gamma": self.gamma(d, scale)}
        if self.name in ("poly", "sigmoid"):
            params["coef0"] = self.coef0
        if self.name == "poly":
            params["degree"] = self.degree
        return params

    @property
    def psd(self):
        """Whether the kernel is positive semidefinite (sigmoid is not)."""
        return self.name != "sigmoid" and (
            self.name != "poly" or self.coef0 >= 0
        )

    def gram(self, X, d, scale):
        """K(X, X) in float64 (inf or nan where it overflows)."""
        with np.errstate(over="ignore", invalid="ignore", under="ignore"):
            inner = X @ X.T
            if self.name in ("linear", "precomputed"):
                return inner
            gamma = self.gamma(d, scale)
            if self.name == "rbf":
                sq = np.einsum("ij,ij->i", X, X)
                dist = np.maximum(sq[:, None] + sq[None, :] - 2 * inner, 0)
                np.fill_diagonal(dist, 0.0)
                return np.exp(-gamma * dist)
            if self.name == "poly":
                return (gamma * inner + self.coef0) ** self.degree
            return np.tanh(gamma * inner + self.coef0)


# ---------------------------------------------------------------------------
# One-vs-one machines from LIBSVM's layout
# ---------------------------------------------------------------------------


@dataclass
class Machine:
    """One binary machine of a fitted SVC, in terms of the training set.

    ``members``: indices of the points it was trained on (its two classes,
    positive weight); ``y``: +1 / -1 on them; ``v``: alpha * y on them;
    ``b``: its intercept, f(x) = sum v K(x_member, x) + b.
    """

    members: np.ndarray
    y: np.ndarray
    C: np.ndarray
    v: np.ndarray
    b: float


def machines(support, dual_coef, intercept, y_index, n_classes, C_point):
    """The machines of a fitted SVC from scikit-learn's attributes.

    ``support`` holds indices into the training set (scikit-learn's are
    mapped there first when some weights were 0). With two classes the one
    machine has y = +1 for class 1 (scikit-learn's sign), with more the
    machine (i, j) has y = +1 for class i (LIBSVM's). ``C_point``: C times
    the weight of each point.
    """
    dual_coef = np.asarray(
        dual_coef.toarray() if hasattr(dual_coef, "toarray") else dual_coef
    )
    coef = np.zeros((max(n_classes - 1, 1), y_index.size))
    for row in range(coef.shape[0]):
        coef[row, support] = dual_coef[row]
    result = []
    p = 0
    for i in range(n_classes):
        for j in range(i + 1, n_classes):
            members = np.flatnonzero(
                ((y_index == i) | (y_index == j)) & (C_point > 0)
            )
            of_i = y_index[members] == i
            v = np.where(of_i, coef[j - 1, members], coef[i, members])
            if n_classes == 2:
                y = np.where(of_i, -1.0, 1.0)
            else:
                y = np.where(of_i, 1.0, -1.0)
            result.append(
                Machine(members, y, C_point[members], v, float(intercept[p]))
            )
            p += 1
    return result


@dataclass
class Certificate:
    """What the model of one machine is worth, computed here."""

    feasible: bool
    infeasibility: str
    dual: float  # D(alpha)
    primal: float  # P(w_alpha, b) with the model's b
    primal_best_b: float  # min over b of P(w_alpha, b)
    gap: float  # primal - dual
    slack: float  # rounding allowed on D and P
    violation: float  # m(alpha) - M(alpha), computed here
    f: np.ndarray  # decision values on the members, model's b
    n_positive: int  # alpha_i > 0 of class +1
    n_negative: int  # alpha_i > 0 of class -1


def certificate(machine, K):
    """Duality gap, feasibility and KKT violation of one machine."""
    m = machine
    Km = K[np.ix_(m.members, m.members)]
    alpha = m.v * m.y
    problems = []
    if np.any(alpha < -ROUNDING * np.maximum(m.C, 1e-300)):
        problems.append(f"alpha < 0 (min {alpha.min():.3g})")
        # a coefficient of the wrong sign: alpha y has the other label's sign
    if np.any(alpha > m.C * (1 + ROUNDING)):
        k = int(np.argmax(alpha - m.C))
        problems.append(f"alpha_{k} = {alpha[k]:.6g} > C_i = {m.C[k]:.6g}")
    balance = float(np.sum(m.v))
    if abs(balance) > ROUNDING * max(np.abs(alpha).sum(), 1e-300):
        problems.append(
            f"sum alpha_i y_i = {balance:.3g} != 0 (sum alpha = "
            f"{np.abs(alpha).sum():.3g})"
        )
    with np.errstate(over="ignore", invalid="ignore"):
        Kv = Km @ m.v
        quad = float(m.v @ Kv)
        abs_quad = float(np.abs(m.v) @ np.abs(Km) @ np.abs(m.v))
        abs_F = np.abs(Km) @ np.abs(m.v)
        dual = float(alpha.sum() - 0.5 * quad)
        f = Kv + m.b
        margin = m.y * f
        primal = 0.5 * quad + float(m.C @ np.maximum(0.0, 1.0 - margin))
        best = 0.5 * quad + _best_b_loss(Kv, m.y, m.C)
        slack = ROUNDING * (
            np.abs(alpha).sum()
            + abs_quad
            + float(m.C @ (1.0 + abs_F + abs(m.b)))
        )
    # the maximal KKT violation, with LIBSVM's index sets
    grad = m.y - Kv  # -y_i G_i of LIBSVM, G = Q alpha - 1
    at_upper = alpha >= m.C * (1 - 1e-12)
    at_lower = alpha <= 0
    up = np.where(m.y > 0, ~at_upper, ~at_lower)
    low = np.where(m.y > 0, ~at_lower, ~at_upper)
    violation = float(
        (grad[up].max() if up.any() else -np.inf)
        - (grad[low].min() if low.any() else np.inf)
    )
    positive = alpha > 0
    return Certificate(
        feasible=not problems,
        infeasibility="; ".join(problems),
        dual=dual,
        primal=primal,
        primal_best_b=best,
        gap=primal - dual,
        slack=slack,
        violation=violation,
        f=f,
        n_positive=int(np.count_nonzero(positive & (m.y > 0))),
        n_negative=int(np.count_nonzero(positive & (m.y < 0))),
    )


def _best_b_loss(F, y, C):
    """min over b of sum_i C_i max(0, 1 - y_i (F_i + b)).

    Convex and piecewise linear in b: its minimum is at a breakpoint
    b = y_i - F_i.
    """
    breaks = y - F
    if breaks.size > 400:
        breaks = np.quantile(breaks, np.linspace(0, 1, 401))
    losses = [float(C @ np.maximum(0.0, 1.0 - y * (F + b))) for b in breaks]
    return min(losses)


def lambda_min(K, members):
    """The smallest eigenvalue of K on ``members`` and the largest."""
    eigenvalues = np.linalg.eigvalsh(K[np.ix_(members, members)])
    return float(eigenvalues[0]), float(eigenvalues[-1])


# ---------------------------------------------------------------------------
# LinearSVC (LIBLINEAR's primal)
# ---------------------------------------------------------------------------


def linear_primal(coef, intercept, X, y_index, C_point, loss, B, fit):
    """LIBLINEAR's primal objective of each one-vs-rest machine.

    LIBLINEAR appends the feature B (intercept_scaling) to every point, so
    b = w_B B and the regulariser is 1/2 (||w||^2 + (b / B)^2):

        P = 1/2 ||w||^2 + 1/2 (b / B)^2 + sum_i C_i loss(y_i (w.x_i + b)).

    Returns a list of (P, slack) per machine (class 1 positive with two
    classes, class k against the rest with more).
    """
    n_classes = int(y_index.max()) + 1
    positives = [1] if n_classes == 2 else range(n_classes)
    result = []
    for row, k in enumerate(positives):
        y = np.where(y_index == k, 1.0, -1.0)
        w, b = coef[row], float(intercept[row]) if fit else 0.0
        with np.errstate(over="ignore", invalid="ignore", under="ignore"):
            f = X @ w + b
            slack_ = np.maximum(0.0, 1.0 - y * f)
            penalty = slack_ if loss == "hinge" else slack_**2
            reg = 0.5 * float(w @ w) + (0.5 * (b / B) ** 2 if fit else 0.0)
            P = reg + float(C_point @ penalty)
            size = np.abs(X) @ np.abs(w) + abs(b) + 1.0
            if loss == "squared_hinge":
                size = size * size
            slack = ROUNDING * (reg + float(C_point @ size))
        result.append((P, slack))
    return result
