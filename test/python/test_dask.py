"""vkscan.dask.cumsum and cumprod on a LocalCluster of two worker processes, each
scanning its chunks with a device of its own, against numpy.cumsum of the
gathered array."""

import numpy as np
import pytest

import canonical

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")
vkscan_dask = pytest.importorskip("vkscan.dask")


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            yield client


def test_chunks_on_two_workers(client):
    rng = np.random.default_rng(49)
    ints = rng.integers(-2**40, 2**40, size=(60, 50), dtype=np.int64)
    floats = rng.standard_normal((60, 50)).astype(np.float32)
    for data in (ints, floats):
        x = da.from_array(data, chunks=(16, 20))
        for axis, kwargs in [(0, {}), (1, {}), (None, {}), (0, dict(reverse=True)),
                             (1, dict(exclusive=True)), (-1, dict(exclusive=True, reverse=True))]:
            result = vkscan_dask.cumsum(x, axis=axis, **kwargs)
            assert result.chunks == (x.flatten().rechunk(x.npartitions) if axis is None
                                     else x).chunks
            got = client.compute(result).result()
            flat = data.reshape(-1) if axis is None else data
            ax = 0 if axis is None else axis
            want = np.moveaxis(flat, ax, 0)
            if kwargs.get("reverse"):
                want = want[::-1]
            want = np.cumsum(want, axis=0)
            if kwargs.get("exclusive"):
                want = np.concatenate([np.zeros_like(want[:1]), want[:-1]])
            if kwargs.get("reverse"):
                want = want[::-1]
            want = np.moveaxis(want, 0, ax)
            what = f"{data.dtype} axis {axis} {kwargs}"
            if data.dtype.kind == "f":
                np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4, err_msg=what)
            else:
                assert np.array_equal(got, want), what
    workers = client.run(lambda: __import__("vkscan").info()["name"])  # each made a device
    assert len(workers) == 2


def test_one_chunk_along_the_axis_is_the_canonical_bits(client):
    data = np.random.default_rng(1).standard_normal((40, 300)).astype(np.float32)
    x = da.from_array(data, chunks=(10, 300))
    got = client.compute(vkscan_dask.cumsum(x, axis=1)).result()
    assert np.array_equal(canonical.bits(got), canonical.bits(canonical.cumsum(data, 1)))


def test_dtype_follows_numpy(client):
    x = da.from_array(np.arange(40, dtype=np.int32), chunks=7)
    result = vkscan_dask.cumsum(x, axis=0)
    assert result.dtype == np.int64
    assert np.array_equal(client.compute(result).result(), np.cumsum(np.arange(40)))


def test_cumprod_composes_as_numpy(client):
    rng = np.random.default_rng(50)
    ints = rng.integers(-3, 4, size=(30, 40), dtype=np.int64) | 1
    floats = np.exp(rng.normal(0.0, 0.1, (30, 40))).astype(np.float32)
    for data in (ints, floats):
        x = da.from_array(data, chunks=(16, 15))
        for axis, kwargs in [(1, {}), (0, dict(exclusive=True, reverse=True))]:
            got = client.compute(vkscan_dask.cumprod(x, axis=axis, **kwargs)).result()
            want = np.moveaxis(data, axis, 0)
            if kwargs.get("reverse"):
                want = want[::-1]
            want = np.cumprod(want, axis=0)
            if kwargs.get("exclusive"):
                want = np.concatenate([np.ones_like(want[:1]), want[:-1]])
            if kwargs.get("reverse"):
                want = want[::-1]
            want = np.moveaxis(want, 0, axis)
            what = f"{data.dtype} axis {axis} {kwargs}"
            if data.dtype.kind == "f":
                np.testing.assert_allclose(got, want, rtol=1e-4, err_msg=what)
            else:
                assert np.array_equal(got, want), what
