#!/usr/bin/env python3
"""The peer a user would pick: torch.cumsum on the GPU matrix of vkscan-bench.

Times torch.cumsum(x, dim, out=y) and a device copy y.copy_(x) with CUDA
events on the same shapes and dtypes as `vkscan-bench --gpu-matrix`
(tools/bench/cases.cpp gpuMatrix), warm-up first, then the median of N runs,
and writes one CSV row per case. GB/s counts bytes read plus written
(2 x tensor bytes), as vkscan-bench does. Needs only torch (with CUDA) and
the standard library; scripts/gpu-check.sh runs it on the GPU machine.

UINT64 runs as int64: CUDA cumsum has no uint64 kernel in the torch releases
we know, and two's-complement wrapping sums give the same bits either way.
The in-place case times x.cumsum_(dim) on an input restored before each run. The product and maximum cases time torch.cumprod and torch.cummax (which
also writes int64 indices: PyTorch has no values-only form) in the same
columns as cumsum; the carried cases (torch has no carry-in) cumsum, a copy
of each line's last sum as its total, and the carry-in added, as a user
would chain them. Each method gets at most --budget seconds of timed runs.
"""

import argparse
import csv
import statistics
import sys

# name, torch dtype name, sizes, axis; the same cases as gpuMatrix(false).
CASES = [
    ("1d_1m", "float32", [1 << 20], 0),
    ("1d_16m", "float32", [1 << 24], 0),
    ("1d_16m_inplace", "float32", [1 << 24], 0),
    ("1d_256m", "float32", [1 << 28], 0),
    ("1d_128m_u64", "int64", [1 << 27], 0),
    ("1d_256m_f16", "float16", [1 << 28], 0),
    ("rows_16k", "float32", [16384, 16384], 1),
    ("rows_4096", "float32", [1 << 16, 4096], 1),
    ("rows_262144", "float32", [1024, 262144], 1),
    ("columns_16k", "float32", [16384, 16384], 0),
    ("columns_16k_odd", "float32", [16384, 16383], 0),
    ("columns_x4", "float32", [1 << 24, 4], 0),
    ("columns_x3", "float32", [1 << 24, 3], 0),
    ("columns_64", "float32", [64, 1000000], 0),
    ("columns_small", "float32", [4096, 32], 0),
    ("short_rows_16m", "float32", [1 << 24, 16], 1),
    ("latency", "float32", [1, 1, 3, 4], 3),
    ("rows_1000", "float32", [1 << 16, 1000], 1),
    ("rows_50257", "float32", [512, 50257], 1),
    ("rows_77", "float32", [1 << 19, 77], 1),
    ("1d_256m_prod", "float32", [1 << 28], 0),
    ("1d_256m_max", "float32", [1 << 28], 0),
    ("1d_256m_carried", "float32", [1 << 28], 0),
    ("rows_16k_carried", "float32", [16384, 16384], 1),
]
# vkscan-bench's dtype names, for joining the two CSVs.
VKSCAN_TYPE = {"float32": "f32", "int64": "u64", "float16": "f16"}
HEADER = [
    "case", "shape", "axis", "dtype", "torch_dtype", "bytes", "cumsum_us", "cumsum_gbps",
    "copy_us", "copy_gbps", "cumsum_over_copy", "reps", "device", "torch",
]


def random_tensor(torch, dtype, sizes, device, generator):
    # Never zeros: they hide unwritten outputs and can run faster.
    if dtype == torch.int64:
        return torch.randint(-(1 << 62), 1 << 62, sizes, dtype=dtype, device=device,
                             generator=generator)
    return torch.rand(sizes, dtype=torch.float32, device=device, generator=generator).mul_(
        2).sub_(1).to(dtype)


def run_us(torch, fn, prepare=None):
    # `prepare` runs before the timed span: the in-place case's input restored.
    if prepare is not None:
        prepare()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1e3  # ms -> us


def median_us(torch, fn, warmup, repeat, budget_s, prepare=None):
    for _ in range(warmup):
        if prepare is not None:
            prepare()
        fn()
    torch.cuda.synchronize()
    # Slow peers (cummax of 2^28 takes most of a second) get fewer runs, so
    # that every case fits the ready check's step.
    once_s = max(run_us(torch, fn, prepare) * 1e-6, 1e-9)
    repeat = max(3, min(repeat, int(budget_s / once_s)))
    times = [run_us(torch, fn, prepare) for _ in range(repeat)]
    return statistics.median(times), repeat


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="CSV file to write")
    parser.add_argument("--repeat", type=int, default=50, help="timed runs per method (50)")
    parser.add_argument("--warmup", type=int, default=5, help="untimed runs first (5)")
    parser.add_argument("--budget", type=float, default=2.0,
                        help="seconds of timed runs per method and case at most (2)")
    parser.add_argument("--case", action="append", default=[],
                        help="only cases whose name contains this (repeatable)")
    args = parser.parse_args()

    import torch  # imported late so that --help works without torch

    if not torch.cuda.is_available():
        print("torch_peer: torch sees no CUDA device", file=sys.stderr)
        return 1
    device = torch.device("cuda")
    name = torch.cuda.get_device_name(device)
    generator = torch.Generator(device=device)
    generator.manual_seed(47)
    rows = []
    for case, dtype_name, sizes, axis in CASES:
        if args.case and not any(part in case for part in args.case):
            continue
        dtype = getattr(torch, dtype_name)
        x = random_tensor(torch, dtype, sizes, device, generator)
        y = torch.empty_like(x)
        prepare = None
        # Latency: many more runs, as vkscan-bench takes 10 x for its latency case.
        repeat = args.repeat * (10 if case == "latency" else 1)
        if case.endswith("_prod"):
            # Factors near 1, each followed by its reciprocal, as vkscan-bench's,
            # so the products stay finite and normal.
            x = x.mul_(1.0 / 512).add_(1.0)
            x[1::2] = 1.0 / x[0::2][: x[1::2].numel()]
            scan = lambda: torch.cumprod(x, axis, out=y)
        elif case.endswith("_max"):
            indices = torch.empty(sizes, dtype=torch.int64, device=device)
            scan = lambda: torch.cummax(x, axis, out=(y, indices))
        elif case.endswith("_carried"):
            # A chunk of a stream as torch would run it: the scan, each line's
            # total (its last sum, before the carry), then the carry-in added.
            line_sizes = list(sizes)
            line_sizes[axis] = 1
            carry = torch.full(line_sizes, -0.0, dtype=dtype, device=device)
            totals = torch.empty(line_sizes, dtype=dtype, device=device)
            last = sizes[axis] - 1

            def scan():
                torch.cumsum(x, axis, out=y)
                totals.copy_(y.narrow(axis, last, 1))
                y.add_(carry)
        elif case.endswith("_inplace"):
            # Each run scans the same input, restored untimed, as vkscan-bench does.
            pristine = x.clone()
            prepare = lambda: x.copy_(pristine)
            scan = lambda: x.cumsum_(axis)
        else:
            scan = lambda: torch.cumsum(x, axis, out=y)
        scan_us, repeat = median_us(torch, scan, args.warmup, repeat, args.budget, prepare)
        copy_us, _ = median_us(torch, lambda: y.copy_(x), args.warmup, repeat, args.budget)
        moved = 2 * x.numel() * x.element_size()
        rows.append({
            "case": case,
            "shape": "x".join(str(s) for s in sizes),
            "axis": axis,
            "dtype": VKSCAN_TYPE[dtype_name],
            "torch_dtype": dtype_name,
            "bytes": x.numel() * x.element_size(),
            "cumsum_us": f"{scan_us:.3f}",
            "cumsum_gbps": f"{moved / (scan_us * 1e3):.4f}",
            "copy_us": f"{copy_us:.3f}",
            "copy_gbps": f"{moved / (copy_us * 1e3):.4f}",
            "cumsum_over_copy": f"{copy_us / scan_us:.4f}",
            "reps": repeat,
            "device": name,
            "torch": torch.__version__,
        })
        print(f"torch_peer: {case:15s} cumsum {scan_us:10.1f} us "
              f"({moved / (scan_us * 1e3):8.1f} GB/s), copy {copy_us:10.1f} us "
              f"({moved / (copy_us * 1e3):8.1f} GB/s)", file=sys.stderr, flush=True)
        # Written after every case, so that a run cut short keeps what it timed.
        write_csv(args.out, rows)
        del x, y
        torch.cuda.empty_cache()
    write_csv(args.out, rows)
    return 0


def write_csv(path, rows):
    with open(path, "w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=HEADER)
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    sys.exit(main())
