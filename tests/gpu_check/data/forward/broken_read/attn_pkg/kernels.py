"""Kernel entry points, as an attention library exposes them (small CPU reference code)."""

import torch


def paged_decode(query, kv_cache, workspace_buffer, block_tables, seq_lens, scale, window_left=-1):
    """One query token per request against its pages of the cache: softmax(qK^T * scale) V."""
    k_cache, v_cache = kv_cache
    page_size = k_cache.shape[1]
    out = torch.empty_like(query)
    for row, length in enumerate(seq_lens.tolist()):
        pages = block_tables[row, : -(-length // page_size)]
        keys = k_cache[pages].reshape(-1, *k_cache.shape[2:])[:length]
        values = v_cache[pages].reshape(-1, *v_cache.shape[2:])[:length]
        if window_left is not None and window_left >= 0:
            keys, values = keys[-(window_left + 1):], values[-(window_left + 1):]
        weights = torch.softmax(torch.einsum("hd,thd->ht", query[row], keys) * scale, dim=-1)
        out[row] = torch.einsum("ht,thd->hd", weights, values)
    return out


def context_attention(query, kv_cache, workspace_buffer, block_tables, seq_lens, cu_seqlens_q, scale):
    """Prefill attention over the cache (stands for a kernel shipped as prebuilt binaries)."""
    raise RuntimeError("prebuilt kernel binaries are not installed")


class RaggedWrapper:
    """A planned prefill kernel: plan() once per batch, run() once per layer."""

    def __init__(self, workspace):
        self._workspace = workspace
        self._int_buffer = torch.empty(64 << 10, dtype=torch.uint8, device=workspace.device)
        self._plan = None

    def plan(self, qo_indptr, kv_indptr, num_heads, head_dim, causal=True):
        self._plan = (qo_indptr.clone(), kv_indptr.clone(), causal)

    def run(self, q, k, v):
        qo_indptr, _kv_indptr, _causal = self._plan
        out = torch.empty_like(q)
        for start, end in zip(qo_indptr[:-1].tolist(), qo_indptr[1:].tolist()):
            scores = torch.einsum("qhd,khd->hqk", q[start:end], k[start:end])
            mask = torch.ones(end - start, end - start, dtype=torch.bool).tril()
            scores = scores.masked_fill(~mask, float("-inf"))
            out[start:end] = torch.einsum("hqk,khd->qhd", torch.softmax(scores, -1), v[start:end])
        return out
