"""Does FlashInfer's FA2 decode kernel JIT-compile on this machine, and how long does it take?

    python bench/gpu_jit_probe.py        # prints one line: compiled in N s, or the error

Plans and runs BatchDecodeWithPagedKVCacheWrapper once (bf16, 32 q / 8 kv heads, head
dim 128, page 64), which makes FlashInfer build its decode module with nvcc.
"""

import time

import flashinfer
import torch

start = time.perf_counter()
try:
    workspace = torch.zeros(128 << 20, dtype=torch.uint8, device="cuda")
    wrapper = flashinfer.BatchDecodeWithPagedKVCacheWrapper(workspace, "NHD")
    indptr = torch.tensor([0, 2], dtype=torch.int32, device="cuda")
    indices = torch.tensor([0, 1], dtype=torch.int32, device="cuda")
    last = torch.tensor([64], dtype=torch.int32, device="cuda")
    wrapper.plan(indptr, indices, last, 32, 8, 128, 64, q_data_type=torch.bfloat16, kv_data_type=torch.bfloat16)
    q = torch.randn(1, 32, 128, dtype=torch.bfloat16, device="cuda")
    kv = torch.randn(2, 2, 64, 8, 128, dtype=torch.bfloat16, device="cuda")
    out = wrapper.run(q, kv)
    torch.cuda.synchronize()
    print(f"FA2 decode JIT: compiled and ran in {time.perf_counter() - start:.1f} s, output {tuple(out.shape)}")
except Exception as exc:
    print(f"FA2 decode JIT: failed after {time.perf_counter() - start:.1f} s: {type(exc).__name__}: {exc}"[:2000])
