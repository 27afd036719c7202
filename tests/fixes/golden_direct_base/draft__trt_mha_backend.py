"""TensorRT-LLM-style MHA backend built on top of FlashBackend.

It brings its own kernels, metadata and workspace; from the parent it only
keeps the pool references, the kv index buffers and one scale helper.
"""

try:
    import torch
except ImportError:  # CPU stand-in for tests
    from fixtures.backends import fake_torch as torch

from fixtures.backends.buffers import get_buffer
from fixtures.backends.flash_backend import FlashBackend

TRT_MHA_WORKSPACE_MB = 8


class TrtMHABackend(FlashBackend):
    def __init__(
        self,
        runner,
        skip_prefill=False,
        kv_indptr_buf=None,
        kv_last_page_len_buf=None,
        step_id=0,
    ):
        super().__init__(runner, skip_prefill, kv_indptr_buf, kv_last_page_len_buf)
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


class TrtMHAMultiStepDraft:
    def __init__(self, runner, topk, num_steps):
        self.num_steps = num_steps
        max_bs = runner.max_bs * topk
        self.kv_indptr = torch.zeros(
            (num_steps, max_bs + 1), dtype=torch.int32, device=runner.device
        )
        self.kv_last_page_len = torch.ones(
            (max_bs,), dtype=torch.int32, device=runner.device
        )
        self.attn_backends = []
        for i in range(self.num_steps - 1):
            self.attn_backends.append(
                TrtMHABackend(
                    runner,
                    skip_prefill=True,
                    kv_indptr_buf=self.kv_indptr[i],
                    kv_last_page_len_buf=self.kv_last_page_len,
                    step_id=i,
                )
            )

    def common_template(self, batch, call_fn):
        assert batch.mode == "decode", "draft steps only decode"
        self.kv_indptr.fill_(0)
        self.kv_last_page_len.fill_(1)
        for i in range(self.num_steps - 1):
            call_fn(i, batch)

    def init_forward_metadata(self, batch):
        def call_fn(i, step_batch):
            self.attn_backends[i].init_forward_metadata(step_batch)

        self.common_template(batch, call_fn)

    def init_cuda_graph_state(self, max_bs):
        for backend in self.attn_backends:
            backend.init_cuda_graph_state(max_bs)
