#!/usr/bin/env python3
"""power_gemm.py DIR [SECONDS] [mixes]: torch GEMM mixes for E16 (issue 15).

Each mix runs SECONDS (default 7) of back-to-back 8192^3 GEMMs on random
data, 1.5 s idle between mixes, while run_all.sh samples nvidia-smi every
20 ms.  Mixes: sgemm_fp32 (TF32 off: torch.backends.cuda.matmul.allow_tf32 =
False, cuBLAS's SIMT FFMA path), tf32, fp16, bf16 and fp8 (e4m3 through
torch._scaled_mm, bf16 out; skipped if this torch cannot); asked for by
name (a list runs in its order, repeats included) also sgemm_zeros, the
SGEMM on all-zero inputs (E32: what its data cost).  Appends one row
per mix to DIR/power_mix.csv (the columns cap_power writes) and every GEMM to
DIR/power_gemm.csv (mix,i,host_ns,gemm_ns,tflops).
"""
import os, sys, time
import torch

out = sys.argv[1]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 7.0
only = sys.argv[3].split(",") if len(sys.argv) > 3 else None
known = ("sgemm_fp32", "sgemm_zeros", "tf32", "fp16", "bf16", "fp8")
for mix in only or []:   # every name checked before anything is measured or written
    if mix not in known:
        sys.exit(f"power_gemm.py: {mix}: unknown mix (expected one of {', '.join(known)})")
n = 8192
torch.manual_seed(1)
dev = "cuda"


def gemm_fn(mix):
    if mix == "sgemm_fp32":
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.set_float32_matmul_precision("highest")
        a = torch.randn(n, n, device=dev); b = torch.randn(n, n, device=dev)
        return lambda: a @ b
    if mix == "sgemm_zeros":   # E32: sgemm_fp32's kernel on all-zero inputs
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.set_float32_matmul_precision("highest")
        a = torch.zeros(n, n, device=dev); b = torch.zeros(n, n, device=dev)
        return lambda: a @ b
    if mix == "tf32":
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.set_float32_matmul_precision("high")
        a = torch.randn(n, n, device=dev); b = torch.randn(n, n, device=dev)
        return lambda: a @ b
    if mix in ("fp16", "bf16"):
        dt = torch.float16 if mix == "fp16" else torch.bfloat16
        a = torch.randn(n, n, device=dev, dtype=dt); b = torch.randn(n, n, device=dev, dtype=dt)
        return lambda: a @ b
    if mix == "fp8":
        a = torch.randn(n, n, device=dev).to(torch.float8_e4m3fn)
        b = torch.randn(n, n, device=dev).to(torch.float8_e4m3fn)
        one = torch.tensor(1.0, device=dev)
        bt = b.t()  # column-major as _scaled_mm wants
        return lambda: torch._scaled_mm(a, bt, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
    raise ValueError(mix)


hdr = ("mix,kernel,gen,grid,block,param,launches,start_host_ns,end_host_ns,time_ns_median,"
       "mhz_inkernel_median,work_per_launch,work_unit,rate_per_s\n")
pm = os.path.join(out, "power_mix.csv")
pg = os.path.join(out, "power_gemm.csv")
new_pm = not os.path.exists(pm) or os.path.getsize(pm) == 0
new_pg = not os.path.exists(pg) or os.path.getsize(pg) == 0
fm = open(pm, "a"); fg = open(pg, "a")
if new_pm: fm.write(hdr)
if new_pg: fg.write("mix,i,host_ns,gemm_ns,tflops\n")
for mix in (only or ["sgemm_fp32", "tf32", "fp16", "bf16", "fp8"]):
    try:
        f = gemm_fn(mix)
        f(); torch.cuda.synchronize()
    except Exception as e:  # fp8 may be missing
        print(f"{mix}: skipped: {e}", flush=True)
        continue
    try:  # which kernel cuBLAS picked (one GEMM under the profiler)
        from torch.profiler import profile, ProfilerActivity
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            f(); torch.cuda.synchronize()
        names = sorted({e.key for e in prof.key_averages() if "gemm" in e.key.lower() or "sm90" in e.key.lower() or "cutlass" in e.key.lower()})
        with open(os.path.join(out, "power_gemm_kernels.csv"), "a") as fk:
            for nm in names:
                fk.write(f"{mix},\"{nm}\"\n")
    except Exception as e:
        print(f"{mix}: profiler: {e}", flush=True)
    flop = 2.0 * n ** 3
    times = []
    start = time.time_ns(); end = start + int(seconds * 1e9)
    i = 0
    while time.time_ns() < end:
        batch = []
        for _ in range(5):
            e0 = torch.cuda.Event(enable_timing=True); e1 = torch.cuda.Event(enable_timing=True)
            h = time.time_ns(); e0.record(); f(); e1.record(); batch.append((h, e0, e1))
        torch.cuda.synchronize()
        for h, e0, e1 in batch:
            ms = e0.elapsed_time(e1)
            times.append(ms * 1e6)
            fg.write(f"{mix},{i},{h},{ms * 1e6:.0f},{flop / (ms * 1e-3) / 1e12:.1f}\n"); i += 1
    stop = time.time_ns()
    s = sorted(times); med = s[len(s) // 2]
    fm.write(f"{mix},torch.matmul,,-1,-1,{n},{len(times)},{start},{stop},{med:.0f},-1,{flop:.4g},flop,{flop / (med * 1e-9):.4g}\n")
    fm.flush(); fg.flush()
    print(f"{mix:10s} {len(times):5d} gemms  {med / 1e6:.2f} ms  {flop / med / 1e3:.1f} TFLOP/s", flush=True)
    time.sleep(1.5)
fm.close(); fg.close()
