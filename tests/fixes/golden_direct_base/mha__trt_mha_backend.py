"""TensorRT-LLM-style MHA backend built on top of FlashBackend.

It brings its own kernels, metadata and workspace; from the parent it only
keeps the pool references, the kv index buffers and one scale helper.
"""

try:
    import torch
except ImportError:  # CPU stand-in for tests
    from fixtures.backends import fake_torch as torch

from fixtures.backends.base import AttentionBackend
from fixtures.backends.buffers import get_buffer
from fixtures.backends.flash_draft import FlashMultiStepDraft

TRT_MHA_WORKSPACE_MB = 8


class TrtMHABackend(AttentionBackend):
    def __init__(
        self,
        runner,
        skip_prefill=False,
        kv_indptr_buf=None,
        kv_last_page_len_buf=None,
        step_id=0,
    ):
        super().__init__()
        # References into the runner (not allocations).
        self.req_to_token_pool = runner.req_to_token_pool
        self.token_to_kv_pool = runner.token_to_kv_pool
        self.kv_quant_method = self.token_to_kv_pool.quant_method
        self.device = runner.device
        self.max_context_len = runner.context_len
        self.num_wrappers = 2 if runner.sliding_window_size else 1
        max_bs = runner.max_bs

        if kv_indptr_buf is None:
            self.kv_indptr = [
                torch.zeros((max_bs + 1,), dtype=torch.int32, device=runner.device)
                for _ in range(self.num_wrappers)
            ]
        else:
            self.kv_indptr = [kv_indptr_buf]
        if kv_last_page_len_buf is None:
            self.kv_last_page_len = torch.ones(
                (max_bs,), dtype=torch.int32, device=runner.device
            )
        else:
            self.kv_last_page_len = kv_last_page_len_buf

        self.forward_metadata = None
        self.page_size = runner.page_size  # re-bound plain value
        self.step_id = step_id
        self.q_dtype = runner.dtype
        # This kernel family wants a zero-filled scratch of its own.
        self.workspace_buffer = get_buffer(
            "trt_mha_ws",
            lambda: torch.zeros(
                TRT_MHA_WORKSPACE_MB * 1024 * 1024,
                dtype=torch.uint8,
                device=runner.device,
            ),
        )
        self.decode_graph_meta = {}

    def init_forward_metadata(self, batch):
        self.forward_metadata = {
            "page_table": self.req_to_token_pool.req_to_token,
            "kv_indptr": self.kv_indptr[0],
            "last_page_len": self.kv_last_page_len,
            "seq_lens": batch.seq_lens,
            "mode": batch.mode,
        }

    def init_cuda_graph_state(self, max_bs):
        pages = max(1, self.max_context_len // self.page_size)
        self.graph_page_table = torch.zeros(
            (max_bs, pages), dtype=torch.int32, device=self.device
        )
        self.decode_graph_meta["kv_indptr"] = self.kv_indptr[0].clone()

    def get_graph_fill_value(self):
        return 1

    def _run_kernel(self, q, k, v, layer):
        k_scale, v_scale = self._kv_write_scales(layer)
        self.token_to_kv_pool.set_kv(layer.layer_id, k, v, k_scale, v_scale)
        if self.forward_metadata is None:
            raise RuntimeError("init_forward_metadata() was not called")
        # A real kernel would run in self.workspace_buffer here.
        return q.clone() if self.workspace_buffer.nbytes else q

    def forward_decode(self, q, k, v, layer, batch):
        return self._run_kernel(q, k, v, layer)

    def forward_extend(self, q, k, v, layer, batch):
        return self._run_kernel(q, k, v, layer)

    def _kv_write_scales(self, layer):
        if self.kv_quant_method.needs_global_scale():
            return None, None
        return layer.k_scale, layer.v_scale


class TrtMHAMultiStepDraft(FlashMultiStepDraft):
    def __init__(self, runner, topk, num_steps):
        super().__init__(runner, topk, num_steps)
        for i in range(self.num_steps - 1):
            self.attn_backends[i] = TrtMHABackend(
                runner,
                skip_prefill=True,
                kv_indptr_buf=self.kv_indptr[i],
                kv_last_page_len_buf=self.kv_last_page_len,
                step_id=i,
            )
