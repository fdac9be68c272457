"""vkscan.cummax and cummin with indices=True against torch.cummax and
torch.cummin (values and indices), on data full of ties, signed zeros and
NaNs of both signs, every vkscan type torch has, both directions (torch's
reverse is a flip), C and Fortran order. Skipped without torch."""

import numpy as np
import pytest

import vkscan

torch = pytest.importorskip("torch")

FUNCTIONS = {"max": (vkscan.cummax, torch.cummax), "min": (vkscan.cummin, torch.cummin)}
TYPES = [np.float32, np.float16, np.float64, np.int32, np.int64]


def tied(rng, dtype, shape):
    """Few distinct values, so that ties are everywhere; for floats a
    quarter signed zeros and some NaNs of both signs."""
    dtype = np.dtype(dtype)
    if dtype.kind != "f":
        return rng.integers(-3, 4, shape).astype(dtype)
    values = rng.integers(-3, 4, shape).astype(dtype)
    pick = rng.integers(0, 32, shape)
    values[pick == 0] = np.nan
    values[pick == 1] = -np.nan
    values[(pick >= 2) & (pick < 10)] = -0.0
    values[(pick >= 10) & (pick < 14)] = 0.0
    return values


def torch_result(torch_function, a, axis, reverse):
    # torch has no CPU cummax for float16: its float32, exact both ways.
    t = torch.from_numpy(np.ascontiguousarray(a, np.float32 if a.dtype == np.float16 else None))
    if reverse:
        t = torch.flip(t, [axis])
    values, indices = torch_function(t, axis)
    if reverse:
        values = torch.flip(values, [axis])
        indices = a.shape[axis] - 1 - torch.flip(indices, [axis])
    return values.numpy().astype(a.dtype), indices.numpy()


@pytest.mark.parametrize("dtype", TYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_values_and_indices_as_torch(device, rng, name, dtype):
    if np.dtype(dtype) == np.float64 and not device.supports("FLOAT64"):
        pytest.skip("the device lacks shaderFloat64")
    ours, theirs = FUNCTIONS[name]
    a = tied(rng, dtype, (4, 300, 3))
    for axis, reverse, layout in [(1, False, "C"), (0, True, "F"), (2, False, "F"),
                                  (1, True, "C")]:
        x = np.asfortranarray(a) if layout == "F" else a
        values, indices = ours(x, axis=axis, reverse=reverse, indices=True, device=device)
        want_values, want_indices = torch_result(theirs, a, axis, reverse)
        what = f"{name} {np.dtype(dtype).name} axis {axis} reverse {reverse} {layout}"
        assert indices.dtype == np.int64, what
        np.testing.assert_array_equal(indices, want_indices, err_msg=what)
        # Values as bits: which zero and which NaN were taken.
        assert np.array_equal(values.view(f"u{values.itemsize}"),
                              want_values.view(f"u{values.itemsize}")), what


def test_torch_tensors_in_and_out(device):
    t = torch.tensor([[1.0, 3.0, 3.0, float("nan"), 2.0, 5.0]])
    values, indices = vkscan.cummax(t, axis=1, indices=True, device=device)
    want = torch.cummax(t, 1)
    assert isinstance(indices, torch.Tensor) and indices.dtype == torch.int64
    assert torch.equal(indices, want.indices)
    assert torch.equal(torch.isnan(values), torch.isnan(want.values))


def test_refused(device):
    a = np.zeros(4, np.float32)
    with pytest.raises(ValueError, match=r"^indices: an exclusive scan has none"):
        vkscan.cummax(a, exclusive=True, indices=True, device=device)
    with pytest.raises(TypeError, match=r"^indices: not computed for bfloat16"):
        vkscan.cummin(np.zeros(4, np.uint16), bfloat16=True, indices=True, device=device)
