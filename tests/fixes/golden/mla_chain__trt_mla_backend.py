"""TensorRT-LLM-style MLA backend: own decode kernel, parent's prefill fallback."""

try:
    import torch
except ImportError:  # CPU stand-in for tests
    from fixtures.backends import fake_torch as torch

from fixtures.backends.buffers import get_buffer
from fixtures.backends.flash_mla_backend import FlashMLABackend, FlashMLAMultiStepDraft

TRT_WORKSPACE_MB = 8

# The "dsl" kernels must not share scratch with the "gen" ones.
_trt_dsl_workspace = None


class TrtMLABackend(FlashMLABackend):
    def __init__(
        self,
        runner,
        skip_prefill=False,
        kv_indptr_buf=None,
        q_indptr_decode_buf=None,
        backend: str = "gen",
        skip_init_workspace_buffer: bool = False,
    ):
        super().__init__(
            runner,
            skip_prefill,
            kv_indptr_buf,
            q_indptr_decode_buf,
            skip_init_decode_wrapper=True,
        )
        self.backend = backend
        self.num_q_heads = runner.num_heads
        self.kv_lora_rank = runner.kv_lora_rank
        self.qk_rope_head_dim = runner.qk_rope_head_dim
        self.data_type = runner.kv_cache_dtype

        if not skip_init_workspace_buffer:
            if self.backend == "dsl":
                global _trt_dsl_workspace
                if _trt_dsl_workspace is None:
                    _trt_dsl_workspace = torch.zeros(
                        TRT_WORKSPACE_MB * 1024 * 1024,
                        dtype=torch.int8,
                        device=runner.device,
                    )
                self.workspace_buffer = _trt_dsl_workspace
            else:
                self.workspace_buffer = get_buffer(
                    "trt_mla_ws",
                    lambda: torch.zeros(
                        TRT_WORKSPACE_MB * 1024 * 1024,
                        dtype=torch.int8,
                        device=runner.device,
                    ),
                )

            # Split-k bookkeeping for the decode kernel only.
            self.kv_split_counter = torch.zeros(
                (runner.max_bs, self.num_q_heads),
                dtype=torch.int32,
                device=runner.device,
            )
        else:
            self.kv_split_counter = None
        self.use_fallback = False
        self.decode_meta = None

    def init_forward_metadata(self, batch):
        self.use_fallback = batch.mode == "extend" and batch.has_prefix
        if self.use_fallback:
            # Prefix prefill goes through the parent's wrapper-based planner.
            super().init_forward_metadata(batch)
        elif batch.mode == "decode":
            self._init_decode_metadata(batch)
        else:
            self.forward_metadata = ("trt_prefill", batch.seq_lens)

    def _init_decode_metadata(self, batch):
        self.decode_meta = (self.kv_indptr, self.q_indptr_decode, batch.seq_lens)
        self.forward_metadata = ("trt_decode", self.decode_meta)

    def _run_decode_kernel(self, q, layer):
        if self.decode_meta is None:
            raise RuntimeError("decode metadata missing")
        self.kv_split_counter.fill_(0)
        return q.clone() if self.workspace_buffer.nbytes else q

    def forward_decode(self, q, k, v, layer, batch):
        self.token_to_kv_pool.set_kv(layer.layer_id, k, v)
        return self._run_decode_kernel(q, layer)

    def forward_extend(self, q, k, v, layer, batch):
        if self.use_fallback:
            return super().forward_extend(q, k, v, layer, batch)
        self.token_to_kv_pool.set_kv(layer.layer_id, k, v)
        return q.clone()


class TrtMLAMultiStepDraft(FlashMLAMultiStepDraft):
    def __init__(self, runner, topk, num_steps, backend="gen"):
        super().__init__(runner, topk, num_steps)
        for i in range(self.num_steps - 1):
            self.attn_backends[i] = TrtMLABackend(
                runner,
                skip_prefill=True,
                kv_indptr_buf=self.kv_indptr[i],
                q_indptr_decode_buf=self.q_indptr_decode,
                backend=backend,
            )
