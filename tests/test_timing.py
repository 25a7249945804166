"""svmlib.timing: the one way the book and the benchmarks time code."""

import numpy as np
import pytest
from scipy import stats

from svmlib.timing import (
    Comparison,
    Timing,
    blas_threads,
    compare,
    pinned_threads,
    scaling_exponent,
    time_call,
    time_once,
)


def test_warmup_calls_are_not_timed():
    calls = []
    timing = time_call(lambda: calls.append(1), repeats=4, warmup=2)
    assert len(calls) == 6
    assert len(timing.seconds) == 4
    assert timing.warmup == 2


def test_threads_are_pinned_while_timing():
    seen = time_call(blas_threads, threads=1).result
    assert seen == 1
    assert time_call(blas_threads, threads=1).threads == 1


def test_pinned_threads_restores_the_count():
    before = blas_threads()
    with pinned_threads(1) as n:
        assert n == 1 == blas_threads()
    assert blas_threads() == before


@pytest.mark.parametrize("repeats", [0, 1, 2, 2.5, True])
def test_fewer_than_three_repeats_is_an_error(repeats):
    with pytest.raises(ValueError, match="repeats"):
        time_call(lambda: None, repeats=repeats)


@pytest.mark.parametrize("threads", [0, -1, 1.5, "2"])
def test_bad_thread_count_is_an_error(threads):
    with pytest.raises(ValueError, match="threads"):
        time_call(lambda: None, threads=threads)


def test_median_and_str():
    timing = Timing((3.0, 1.0, 2.0), threads=2, warmup=1)
    assert timing.median == 2.0
    assert timing.spread == 1.0
    assert (
        str(timing) == "2.00 s (median of 3 after 1 warm-up, 2 BLAS threads)"
    )


def test_compare_alternates_contenders_and_divides_medians():
    calls = []
    result = compare(
        {"a": lambda: calls.append("a"), "b": lambda: calls.append("b")},
        repeats=3,
        warmup=1,
    )
    assert calls == ["a", "b"] * 4  # one warm-up round, three timed rounds
    a, b = result.timings["a"], result.timings["b"]
    assert len(a.seconds) == len(b.seconds) == 3
    assert result.ratio("b") == b.median / a.median
    assert result.ratio("a", baseline="b") == a.median / b.median
    assert "(ratios are to a)" in str(result)


def test_comparison_ratio_is_a_ratio_of_medians():
    timings = {
        "x": Timing((1.0, 2.0, 9.0), threads=1, warmup=1),
        "y": Timing((4.0, 6.0, 5.0), threads=1, warmup=1),
    }
    assert Comparison(timings, "x").ratio("y") == 2.5


def test_compare_rejects_unknown_baseline():
    with pytest.raises(ValueError, match="baseline"):
        compare({"a": lambda: None}, baseline="b")


def _power_law(sizes, k, noise=()):
    factors = noise or [(1.0, 1.0, 1.0)] * len(sizes)
    return [
        Timing(tuple(1e-6 * n**k * f for f in fs), 1, 1)
        for n, fs in zip(sizes, factors, strict=True)
    ]


def test_scaling_exponent_recovers_a_power_law():
    sizes = [250, 500, 1000, 2000]
    trend = scaling_exponent(sizes, _power_law(sizes, 2.0))
    assert trend.exponent == pytest.approx(2.0)
    assert trend.stderr == pytest.approx(0.0, abs=1e-9)
    assert trend.clear


def test_a_non_monotone_series_is_too_noisy_to_tell():
    sizes = [250, 500, 1000, 2000]
    noise = [(1, 1, 1), (30, 30, 30), (1, 1, 1), (1, 1, 1)]
    trend = scaling_exponent(sizes, _power_law(sizes, 1.0, noise))
    assert not trend.monotone
    assert not trend.clear
    assert "too noisy" in str(trend)


def test_a_trend_needs_four_sizes():
    sizes = [250, 500, 1000]
    with pytest.raises(ValueError, match="at least 4"):
        scaling_exponent(sizes, _power_law(sizes, 2.0))


def test_time_once_runs_once_and_says_so():
    calls = []
    timing = time_once(lambda: calls.append(1) or len(calls), threads=1)
    assert calls == [1] and timing.result == 1
    assert len(timing.seconds) == 1 and timing.warmup == 0
    assert timing.median == timing.seconds[0] >= 0
    assert "one run, not repeated, 1 BLAS thread)" in str(timing)
    with pytest.raises(TypeError, match="callable"):
        time_once(42)


def _noisy_power_law(sizes, k, sigma, repeats, rng, bend=0.0):
    """Timings c n^k (1 + bend n) times log-normal noise of sd sigma."""
    return [
        Timing(
            tuple(
                1e-6 * n**k * (1 + bend * n) * np.exp(sigma * z)
                for z in rng.standard_normal(repeats)
            ),
            1,
            1,
        )
        for n in sizes
    ]


def test_local_slopes_are_the_slopes_between_consecutive_medians():
    sizes = [500, 1000, 2000, 4000, 8379]
    rng = np.random.default_rng(0)
    timings = _noisy_power_law(sizes, 1.0, 0.05, 3, rng, bend=1 / 2000)
    trend = scaling_exponent(sizes, timings)
    medians = np.array([np.median(t.seconds) for t in timings])
    by_hand = np.diff(np.log(medians)) / np.diff(np.log(sizes))
    np.testing.assert_allclose(trend.local_slopes, by_hand, rtol=1e-12)
    assert len(trend.local_stderrs) == len(sizes) - 1


def test_lack_of_fit_p_value_is_the_f_test_of_line_against_one_mean_a_size():
    # the same test computed another way: two nested least-squares models,
    # a straight line and a free mean at each size
    sizes = [250, 500, 1000, 2000, 4000]
    rng = np.random.default_rng(1)
    timings = _noisy_power_law(sizes, 1.5, 0.1, 4, rng, bend=1 / 4000)
    log_n = np.repeat(np.log(sizes), 4)
    log_t = np.log(np.concatenate([t.seconds for t in timings]))
    line = np.polyval(np.polyfit(log_n, log_t, 1), log_n)
    means = np.repeat(log_t.reshape(5, 4).mean(axis=1), 4)
    rss_line = np.sum((log_t - line) ** 2)
    rss_full = np.sum((log_t - means) ** 2)
    f = ((rss_line - rss_full) / 3) / (rss_full / 15)
    trend = scaling_exponent(sizes, timings)
    assert trend.lack_of_fit_p == pytest.approx(stats.f.sf(f, 3, 15))


def test_a_bent_series_is_not_one_power_law():
    # slope from about 1.2 to 1.9: every size repeated within 1%, so the
    # exponent's standard error alone would call it clear
    sizes = [250, 500, 1000, 2000, 4000]
    rng = np.random.default_rng(2)
    timings = _noisy_power_law(sizes, 1.0, 0.01, 3, rng, bend=1 / 1000)
    trend = scaling_exponent(sizes, timings)
    assert trend.monotone and trend.stderr < 0.15
    assert not trend.one_law and not trend.clear
    low, high = min(trend.local_slopes), max(trend.local_slopes)
    assert low < 1.3 and high > 1.7
    assert trend.verdict == (
        f"one power law does not fit: local slopes {low:.2f}..{high:.2f}"
    )
    assert trend.verdict in str(trend)


def test_the_test_rejects_a_true_power_law_about_one_time_in_a_hundred():
    sizes = [250, 500, 1000, 2000, 4000]
    rng = np.random.default_rng(3)
    rejected = [
        not scaling_exponent(
            sizes, _noisy_power_law(sizes, 2.0, 0.05, 3, rng)
        ).one_law
        for _ in range(2000)
    ]
    assert 0.004 <= np.mean(rejected) <= 0.02


def test_local_slope_standard_errors_match_their_scatter():
    # the reported standard error of a local slope against the standard
    # deviation of that slope over many simulated series
    sizes = [250, 500, 1000, 2000]
    rng = np.random.default_rng(4)
    trends = [
        scaling_exponent(sizes, _noisy_power_law(sizes, 1.0, 0.1, 5, rng))
        for _ in range(2000)
    ]
    slopes = np.array([t.local_slopes for t in trends])
    reported = np.array([t.local_stderrs for t in trends]).mean(axis=0)
    scatter = slopes.std(axis=0)
    np.testing.assert_allclose(reported, scatter, rtol=0.2)


def test_without_repeats_one_power_law_cannot_be_tested():
    sizes = [250, 500, 1000, 2000]
    timings = [Timing((1e-6 * n,), 1, 0) for n in sizes]
    trend = scaling_exponent(sizes, timings)
    assert np.isnan(trend.lack_of_fit_p)
    assert not trend.one_law and not trend.clear
    assert trend.verdict.startswith("not repeated")
    assert np.all(np.isnan(trend.local_stderrs))
