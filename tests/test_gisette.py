"""The GISETTE loader on small files written here; the Gisette-style data."""

import hashlib
import os

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from svmlib.datasets import gisette

needs_mnist = pytest.mark.skipif(
    not os.environ.get("SVMLIB_DATA_DIR"), reason="SVMLIB_DATA_DIR is not set"
)


@pytest.fixture
def tiny_gisette(tmp_path, monkeypatch):
    rng = np.random.default_rng(0)
    folder = tmp_path / "gisette"
    folder.mkdir()
    arrays = {
        "gisette_train.data": rng.integers(
            0, 1000, size=(6, gisette.N_FEATURES)
        ),
        "gisette_valid.data": rng.integers(
            0, 1000, size=(4, gisette.N_FEATURES)
        ),
        "gisette_train.labels": np.array([1, -1, 1, -1, 1, -1]),
        "gisette_valid.labels": np.array([-1, 1, 1, -1]),
    }
    sums = {}
    for name, array in arrays.items():
        text = (
            "\n".join(
                " ".join(str(v) for v in np.atleast_1d(row)) + " "
                for row in array
            )
            + "\n"
        )
        (folder / name).write_text(text)
        sums[name] = hashlib.sha256(text.encode()).hexdigest()
    monkeypatch.setattr(gisette, "GISETTE_FILES", sums)
    return tmp_path, arrays


def test_reads_the_four_files(tiny_gisette):
    home, arrays = tiny_gisette
    data = gisette.load_gisette(data_home=home, download=False)
    np.testing.assert_array_equal(data.X_train, arrays["gisette_train.data"])
    np.testing.assert_array_equal(data.y_valid, arrays["gisette_valid.labels"])
    assert data.X_valid.dtype == np.int16 and data.X_valid.shape == (
        4,
        gisette.N_FEATURES,
    )


def test_wrong_width_is_reported(tiny_gisette, monkeypatch):
    home, _ = tiny_gisette
    monkeypatch.setattr(gisette, "N_FEATURES", 4999)
    with pytest.raises(OSError, match="expected 4999 columns"):
        gisette.load_gisette(data_home=home, download=False)


def test_missing_files_offline(tmp_path):
    with pytest.raises(OSError, match="gisette_train.data is not in"):
        gisette.load_gisette(data_home=tmp_path, download=False)


@pytest.mark.parametrize(
    "kwargs", [dict(n_train=5), dict(n_valid=0), dict(n_pixels=1)]
)
def test_bad_sizes(kwargs):
    with pytest.raises(ValueError):
        gisette.make_gisette_like(**kwargs)


@needs_mnist
def test_gisette_like_follows_the_recipe():
    data = gisette.make_gisette_like(n_train=1000, n_valid=200, random_state=0)
    assert data.X_train.shape == (1000, 5000) and data.X_valid.shape == (
        200,
        5000,
    )
    assert (
        data.X_train.dtype == np.int16
        and data.X_train.min() >= 0
        and data.X_train.max() == 999
    )
    assert np.bincount(data.y_train + 1)[[0, 2]].tolist() == [500, 500]
    assert data.is_probe.sum() == 2500
    # probes carry no information about the label, real features do
    auc = np.array(
        [
            roc_auc_score(data.y_train, column) if column.std() > 0 else 0.5
            for column in data.X_train.T
        ]
    )
    separation = np.abs(auc - 0.5)
    # (with 1000 examples, chance alone gives |AUC - 0.5| up to about 0.06
    # over 2500 probes)
    assert separation[data.is_probe].max() < 0.08
    assert np.percentile(separation[~data.is_probe], 90) > 0.1
    assert separation[~data.is_probe].max() > 0.3
    again = gisette.make_gisette_like(
        n_train=1000, n_valid=200, random_state=0
    )
    np.testing.assert_array_equal(again.X_valid, data.X_valid)
