"""svmlib.timing: the one way the book and the benchmarks time code."""

import pytest

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
