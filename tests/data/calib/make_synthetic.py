#!/usr/bin/env python3
"""Writes the synthetic measurement files in this directory (run from here).

Every number follows a stated formula, so tests/check_calib.c can derive the
expected values by hand:
  transfers, peer, allreduce: t(S) = alpha + c*S/beta, c = 1 (copies) or
  2(n-1)/n (AllReduce), times (1 + d_i + e_j): d_i = 0.003*sin(1.7 i) per size
  i (a deterministic bias the fit has to average out), e_j the per-trial
  noise below (median 0, so the median trial is exactly model*(1 + d_i)).
  gemm / memory: t = work / rate * (1 + e_j).  latency: ns given per window.
No real GPU was available when these were made: they are synthetic.
"""
import math

E = [-0.004, -0.002, -0.001, 0.0, 0.001, 0.002, 0.005]  # median 0


def trials(model, i=None):
    d = 0.003 * math.sin(1.7 * i) if i is not None else 0.0
    return "[" + ", ".join("%.9g" % (model * (1 + d + e)) for e in E) + "]"


def sweep(lo, hi, mul):
    s = lo
    while s <= hi:
        yield s
        s *= mul


KiB, MiB, GiB = 1024, 1024**2, 1024**3


def head(name, cc, sms, l2, mem, gpus):
    return f"""# Synthetic gpuplan-probe measurement file (tests/data/calib/make_synthetic.py).
# NOT a real recording: numbers follow formulas with known alpha and beta.
format: gpuplan-calib/1
tool: "gpuplan-probe 0.1.0"
date: "2026-12-01T04:00:00Z"
host: "synthetic"
options: {{quick: false, trials: 7, only: "all"}}
device:
  index: 0
  name: "{name}"
  compute_capability: "{cc}"
  sm_count: {sms}
  gpus: {gpus}
  clock_sm_hz: 1980000000
  clock_mem_hz: 2619000000
  memory_bus_bits: 5120
  ecc: true
  memory_bytes: {mem}
  l2_bytes: {l2}
  driver_version: 13000
  runtime_version: 13000
  cuda_toolkit: "13000"
  cublaslt_version: 130000
  nvml_driver_version: "580.65.06"
  pci_bus_id: "0000:18:00.0"
  pcie: {{gen: 5, width: 16, max_gen: 5, max_width: 16, source: "nvml"}}
"""


def h100():
    y = head("NVIDIA H100 80GB HBM3", "9.0", 132, 52428800, 85520809984, 8)
    y += "gemm:\n"
    g = [("bf16", "tensor", "fp32", 780e12, 700e12), ("fp16", "tensor", "fp32", 770e12, 690e12),
         ("fp16", "tensor", "fp16", 790e12, 700e12), ("tf32", "tensor", "fp32", 380e12, 350e12),
         ("fp32", "cuda", "fp32", 50e12, 48e12), ("fp64", "tensor", "fp32", 55e12, 52e12),
         ("fp8", "tensor", "fp32", 1400e12, 1300e12), ("int8", "tensor", "fp32", 1300e12, 1200e12)]
    for p, pipe, acc, sq, llm in g:
        for label, m, n, k, rate in (("square-8192", 8192, 8192, 8192, sq),
                                     ("llm-mlp-up", 4096, 11008, 4096, llm)):
            f = 2 * m * n * k
            y += (f"  - {{precision: {p}, pipeline: {pipe}, accum: {acc}, label: {label}, m: {m}, "
                  f"n: {n}, k: {k}, flop: {f}, batch: 20, verified: true, t_s: {trials(f / rate)}}}\n")
    y += "memory:\n"
    arr = GiB
    for kern, by, rate in (("read", arr, 3.1e12), ("write", arr, 3.05e12), ("copy", 2 * arr, 3.0e12),
                           ("triad", 3 * arr, 3.05e12), ("memcpy-d2d", 2 * arr, 2.8e12),
                           ("l2-read", 65 * 26214400, 9.0e12)):
        for cfg, scale in (("1056x256", 0.97), ("8448x256", 1.0)):
            if kern == "memcpy-d2d" and scale != 1.0:
                continue
            y += (f"  - {{kernel: {kern}, bytes: {by}, working_set: {by}, config: \"{cfg}\", batch: 10, "
                  f"verified: true, t_s: {trials(by / (rate * scale))}}}\n")
    y += "latency:\n"
    for ws in sweep(4 * KiB, GiB, 2):
        if ws <= 64 * KiB:
            ns = 16.0
        elif ws <= 512 * KiB:
            ns = 60.0
        elif ws <= 32 * MiB:
            ns = 140.0
        elif ws <= 256 * MiB:
            ns = 300.0
        elif ws <= 512 * MiB:
            ns = 350.0
        else:
            ns = 380.0
        y += (f"  - {{working_set: {ws}, stride: 128, loads: 200000, verified: true, "
              f"ns: {trials(ns)}, cycles: {trials(ns * 1.98)}}}\n")
    y += "transfer:\n"
    for d, mem, a, b in (("h2d", "pinned", 8e-6, 25e9), ("d2h", "pinned", 9e-6, 26e9),
                         ("h2d", "pageable", 15e-6, 12e9), ("d2h", "pageable", 16e-6, 11e9)):
        for i, s in enumerate(sweep(4 * KiB, GiB, 2)):
            y += (f"  - {{direction: {d}, memory: {mem}, bytes: {s}, batch: 5, verified: true, "
                  f"t_s: {trials(a + s / b, i)}}}\n")
    y += "peer:\n"
    for i, s in enumerate(sweep(4 * KiB, GiB, 4)):
        y += (f"  - {{mode: uni, src: 0, dst: 1, p2p: true, bytes: {s}, batch: 5, verified: true, "
              f"t_s: {trials(12e-6 + s / 370e9, i)}}}\n")
    for i, s in enumerate(sweep(4 * KiB, GiB, 4)):
        b = 2 * s
        y += (f"  - {{mode: bidir, src: 0, dst: 1, p2p: true, bytes: {b}, batch: 5, verified: true, "
              f"t_s: {trials(12e-6 + b / 740e9, i)}}}\n")
    y += (f"  - {{mode: latency, src: 0, dst: 1, p2p: true, bytes: 4, verified: true, "
          f"note: \"pointer chase\", t_s: {trials(2.5e-6)}}}\n")
    y += "allreduce:\n"
    for i, s in enumerate(sweep(8, GiB, 4)):
        y += (f"  - {{gpus: 8, bytes: {s}, dtype: float32, batch: 5, verified: true, "
              f"t_s: {trials(25e-6 + 1.75 * s / 360e9, i)}}}\n")
    y += "complete: true\n"
    return y


def rtx4090():
    y = head("NVIDIA GeForce RTX 4090", "8.9", 128, 75497472, 25393692672, 1)
    y = y.replace("gen: 5, width: 16, max_gen: 5", "gen: 4, width: 8, max_gen: 4")
    y += "gemm:\n"
    for p, pipe, acc, rate in (("bf16", "tensor", "fp32", 160e12), ("fp16", "tensor", "fp16", 300e12)):
        f = 2 * 8192**3
        y += (f"  - {{precision: {p}, pipeline: {pipe}, accum: {acc}, label: square-8192, m: 8192, "
              f"n: 8192, k: 8192, flop: {f}, verified: true, t_s: {trials(f / rate)}}}\n")
    y += "memory:\n"
    y += f"  - {{kernel: copy, bytes: {2 * GiB}, verified: true, t_s: {trials(2 * GiB / 0.92e12)}}}\n"
    y += "warnings:\n  - \"PCIe link runs at gen 4 x8 below its maximum gen 4 x16\"\n"
    y += "skipped:\n  - \"peer: needs >= 2 GPUs; 1 visible\"\n"
    y += "complete: true\n"
    return y


if __name__ == "__main__":
    h = h100()
    open("synthetic-h100.yaml", "w").write(h)
    open("synthetic-rtx4090.yaml", "w").write(rtx4090())
    lines = h.splitlines(keepends=True)
    cut = next(i for i, l in enumerate(lines) if l.startswith("transfer:")) + 10
    open("truncated.yaml", "w").write("".join(lines[:cut]))
    open("truncated-midline.yaml", "w").write("".join(lines[:cut]) + lines[cut][:37])
    bad = h.replace("t_s: [", "t_s: [abc, ", 1)
    open("corrupt.yaml", "w").write(bad)
    open("corrupt-syntax.yaml", "w").write(h.replace("device:\n  index: 0\n", "device:\n  index: 0\n index: [\n", 1))
