"""PyTorch CPU tensors in and out: a tensor gives a tensor, as torch.cumsum
would (its dtype rules are numpy's: integers widen to int64)."""

import numpy as np
import pytest

import canonical
import vkscan

torch = pytest.importorskip("torch")


def test_tensor_in_tensor_out(device):
    t = torch.arange(-20, 40, dtype=torch.int32).reshape(3, 20)
    for dim in (0, 1, -1):
        got = vkscan.cumsum(t, axis=dim, device=device)
        assert isinstance(got, torch.Tensor)
        assert got.dtype == torch.int64 and torch.equal(got, torch.cumsum(t, dim))
    got = vkscan.cumsum(t, axis=1, dtype=torch.int32, device=device)
    assert torch.equal(got, torch.cumsum(t, 1, dtype=torch.int32))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.float64])
def test_float_tensors_are_the_canonical_bits(device, dtype):
    gen = torch.Generator().manual_seed(7)
    t = torch.randn(4, 300, generator=gen).to(dtype)
    for view in (t, t.T, t[:, ::3], t.T[::2]):  # strided views, no copy
        for dim in (0, 1):
            got = vkscan.cumsum(view, axis=dim, device=device)
            assert got.dtype == dtype
            want = canonical.cumsum(view.numpy(), dim)
            assert np.array_equal(canonical.bits(got.numpy()), canonical.bits(want))
            torch.testing.assert_close(got.double(), torch.cumsum(view.double(), dim),
                                       rtol=1e-2, atol=1e-2)


def test_out_tensor_and_autograd_input(device):
    t = torch.randn(5, 6, requires_grad=True)
    out = torch.empty(6, 5).T  # a transposed output, written through its strides
    assert vkscan.cumsum(t, axis=0, out=out, exclusive=True, reverse=True, device=device) is out
    want = torch.flip(torch.cumsum(torch.flip(t.detach(), [0]), 0), [0]) - t.detach()
    torch.testing.assert_close(out, want)


def test_numpy_in_with_torch_dtype(device):
    a = np.arange(10, dtype=np.int64)
    got = vkscan.cumsum(a, dtype=torch.int32, device=device)
    assert isinstance(got, np.ndarray) and got.dtype == np.int32


def test_bfloat16_tensors_are_the_canonical_bits(device):
    gen = torch.Generator().manual_seed(8)
    t = torch.randn(4, 300, generator=gen).to(torch.bfloat16)

    def bits(x):
        return x.view(torch.int16).numpy().view(np.uint16)

    for view in (t, t.T, t[:, ::3]):  # strided views, no copy
        for dim in (0, 1):
            got = vkscan.cumsum(view, axis=dim, device=device)
            assert got.dtype == torch.bfloat16
            assert np.array_equal(bits(got), canonical.cumsum_bfloat16(bits(view), dim))
            torch.testing.assert_close(got.double(), torch.cumsum(view.double(), dim),
                                       rtol=5e-2, atol=5e-2)
    out = torch.empty(300, 4, dtype=torch.bfloat16).T
    assert vkscan.cumsum(t, axis=1, out=out, exclusive=True, device=device) is out
    assert np.array_equal(bits(out), canonical.cumsum_bfloat16(bits(t), 1, exclusive=True))


def test_reject_tensors_vkscan_cannot_take(device):
    with pytest.raises(TypeError, match=r"^dtype: torch.float64 for bfloat16 input"):
        vkscan.cumsum(torch.zeros(3, dtype=torch.bfloat16), dtype=torch.float64, device=device)
    with pytest.raises(TypeError, match=r"^dtype"):
        vkscan.cumsum(torch.zeros(3), dtype=torch.bfloat16, device=device)
    with pytest.raises(TypeError, match=r"^dtype: uint32 has no torch type"):
        vkscan.cumsum(torch.zeros(3), dtype=np.uint32, device=device)


def test_cummax_cummin_are_torch_values_bit_for_bit(device):
    # Ties (small integers, -0.0 against +0.0) and NaNs of both signs. torch
    # keeps each NaN's bits; vkscan promises the latest NaN, not its payload,
    # so NaNs are compared by place and sign (which NaN won), the rest by bits.
    gen = torch.Generator().manual_seed(9)
    t = torch.randint(-3, 4, (4, 300), generator=gen).to(torch.float32)
    pick = torch.randint(0, 64, (4, 300), generator=gen)
    t[pick == 0] = float("nan")
    t[pick == 1] = -float("nan")
    t[(pick >= 2) & (pick < 10)] = -0.0
    for view in (t, t.T):
        for dim in (0, 1):
            for ours, theirs in ((vkscan.cummax, torch.cummax), (vkscan.cummin, torch.cummin)):
                got = ours(view, axis=dim, device=device)
                want = theirs(view, dim).values
                assert isinstance(got, torch.Tensor) and got.dtype == torch.float32
                g, w = got.numpy(), want.numpy()
                nan = np.isnan(w)
                what = f"{theirs.__name__} dim {dim}"
                assert np.array_equal(np.isnan(g), nan), what
                assert np.array_equal(np.signbit(g[nan]), np.signbit(w[nan])), what
                assert np.array_equal(canonical.bits(g[~nan]), canonical.bits(w[~nan])), what


def test_cummax_cummin_on_integer_tensors_keep_their_dtype(device):
    gen = torch.Generator().manual_seed(10)
    wide = torch.randint(-2**62, 2**62, (3, 200), generator=gen, dtype=torch.int64)
    ties = torch.randint(-4, 5, (3, 200), generator=gen, dtype=torch.int64)
    for t in (wide, ties, ties.to(torch.int32)):
        for dim in (0, 1, -1):
            for ours, theirs in ((vkscan.cummax, torch.cummax), (vkscan.cummin, torch.cummin)):
                got = ours(t, axis=dim, device=device)
                assert got.dtype == t.dtype
                assert torch.equal(got, theirs(t, dim).values), (theirs.__name__, t.dtype, dim)
    # torch.cumprod widens int32 to int64, as numpy does.
    small = torch.randint(-3, 4, (3, 20), generator=gen, dtype=torch.int32)
    got = vkscan.cumprod(small, axis=1, device=device)
    assert got.dtype == torch.int64 and torch.equal(got, torch.cumprod(small, 1))


def test_logcumsumexp_is_torch_within_the_stated_accuracy(device):
    # The canonical bits, and within 4 ulp of max(|exact|, 1) of float64's
    # logcumsumexp (the header's bound for values in [-30, 30]; below 1 in
    # magnitude the last step may cancel, so the error is absolute there).
    # torch's CPU float32 result is within 0.5 ulp, so the two differ by at
    # most 4.5.
    gen = torch.Generator().manual_seed(11)
    t = torch.rand(4, 3000, generator=gen) * 60 - 30
    for view in (t, t.T):
        for dim in (0, 1):
            got = vkscan.logcumsumexp(view, axis=dim, device=device)
            assert isinstance(got, torch.Tensor) and got.dtype == torch.float32
            want = canonical.scan(view.numpy(), dim, "LOG_SUM_EXP")
            assert np.array_equal(canonical.bits(got.numpy()), canonical.bits(want))
            exact = torch.logcumsumexp(view.double(), dim).numpy()
            scale = np.maximum(np.abs(exact), 1.0).astype(np.float32)
            ulp = np.spacing(scale).astype(np.float64)
            ours = np.max(np.abs(got.numpy() - exact) / ulp)
            assert ours <= 4.0, f"dim {dim}: {ours} ulp"
            theirs = torch.logcumsumexp(view, dim).numpy()
            assert np.max(np.abs(got.numpy() - theirs) / ulp) <= 4.5, f"dim {dim}"
    half = t.to(torch.float16)
    got = vkscan.logcumsumexp(half, axis=1, device=device)
    assert got.dtype == torch.float16
    want = canonical.scan(half.numpy(), 1, "LOG_SUM_EXP")
    assert np.array_equal(canonical.bits(got.numpy()), canonical.bits(want))
