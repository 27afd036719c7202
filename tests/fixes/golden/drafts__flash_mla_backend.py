"""FlashInfer-style MLA backend (the MLA parent) and its multi-step draft."""

try:
    import torch
except ImportError:  # CPU stand-in for tests
    from fixtures.backends import fake_torch as torch

from fixtures.backends.base import AttentionBackend
from fixtures.backends.buffers import get_buffer
from fixtures.backends.flash_updaters import (
    FlashMLAIndicesUpdaterDecode,
    FlashMLAIndicesUpdaterPrefill,
)
from fixtures.backends.wrappers import MLAPagedWrapper, PrefillRaggedWrapper

FLASH_MLA_WORKSPACE_MB = 8


class FlashMLABackend(AttentionBackend):
    def __init__(
        self, runner, skip_prefill=False, kv_indptr_buf=None, q_indptr_decode_buf=None
    ):
        super().__init__()
        self.device = runner.device
        self.page_size = runner.page_size
        self.max_context_len = runner.context_len
        self.skip_prefill = skip_prefill
        self.req_to_token_pool = runner.req_to_token_pool
        self.token_to_kv_pool = runner.token_to_kv_pool
        max_bs = runner.max_bs

        self.workspace_buffer = get_buffer(
            "flash_mla_ws",
            lambda: torch.empty(
                FLASH_MLA_WORKSPACE_MB * 1024 * 1024,
                dtype=torch.uint8,
                device=runner.device,
            ),
        )
        if kv_indptr_buf is None:
            self.kv_indptr = torch.zeros(
                (max_bs + 1,), dtype=torch.int32, device=runner.device
            )
        else:
            self.kv_indptr = kv_indptr_buf
        if not self.skip_prefill:
            self.qo_indptr = torch.zeros(
                (max_bs + 1,), dtype=torch.int32, device=runner.device
            )
        if q_indptr_decode_buf is None:
            self.q_indptr_decode = torch.arange(
                0, max_bs + 1, dtype=torch.int32, device=runner.device
            )
        else:
            self.q_indptr_decode = q_indptr_decode_buf

        self.prefill_wrapper_ragged = PrefillRaggedWrapper(self.workspace_buffer)
        if not self.skip_prefill:
            self.prefill_wrapper_paged = MLAPagedWrapper(self.workspace_buffer)
            self.prefill_wrapper_verify = MLAPagedWrapper(self.workspace_buffer)
        self.decode_wrapper = MLAPagedWrapper(self.workspace_buffer)

        if not skip_prefill:
            self.indices_updater_prefill = FlashMLAIndicesUpdaterPrefill(runner, self)
        self.indices_updater_decode = FlashMLAIndicesUpdaterDecode(runner, self)
        self.forward_metadata = None

    def init_forward_metadata(self, batch):
        # Phase-specific halves are separate methods so subclasses can swap one.
        if batch.mode == "decode":
            self._init_decode_metadata(batch)
        else:
            self._init_prefill_metadata(batch)

    def _init_decode_metadata(self, batch):
        self.indices_updater_decode.update(batch, self.decode_wrapper)
        self.forward_metadata = ("decode", self.decode_wrapper)

    def _init_prefill_metadata(self, batch):
        if batch.mode == "verify":
            wrapper = self.prefill_wrapper_verify
        else:
            wrapper = self.prefill_wrapper_paged
        self.indices_updater_prefill.update(
            batch, self.qo_indptr, wrapper, self.prefill_wrapper_ragged
        )
        self.forward_metadata = ("prefill", wrapper)

    def init_cuda_graph_state(self, max_bs):
        self.cuda_graph_kv_indices = torch.zeros(
            (max_bs * self.max_context_len,), dtype=torch.int32, device=self.device
        )
        self.cuda_graph_q_indptr = self.q_indptr_decode.clone()

    def get_graph_fill_value(self):
        return 1

    def forward_extend(self, q, k, v, layer, batch):
        self.token_to_kv_pool.set_kv(layer.layer_id, k, v)
        if self.forward_metadata is None or self.forward_metadata[0] != "prefill":
            self._init_prefill_metadata(batch)
        if batch.has_prefix:
            return self.prefill_wrapper_paged.run(q, k, v)
        return self.prefill_wrapper_ragged.run(q, k, v)

    def forward_decode(self, q, k, v, layer, batch):
        self.token_to_kv_pool.set_kv(layer.layer_id, k, v)
        return self.decode_wrapper.run(q, k, v)


class FlashMLAMultiStepDraft:
    """Not a backend subclass: owns one decode-only FlashMLABackend per step."""

    def __init__(self, runner, topk, num_steps, skip_init_attn_backends: bool = False):
        if topk > 1:
            raise ValueError("only topk == 1 is modelled")
        self.topk = topk
        self.num_steps = num_steps
        max_bs = runner.max_bs * topk
        self.kv_indptr = torch.zeros(
            (num_steps, max_bs + 1), dtype=torch.int32, device=runner.device
        )
        self.q_indptr_decode = torch.arange(
            0, max_bs + 1, dtype=torch.int32, device=runner.device
        )
        if not skip_init_attn_backends:
            self.attn_backends = []
            for i in range(self.num_steps - 1):
                self.attn_backends.append(
                    FlashMLABackend(
                        runner,
                        skip_prefill=True,
                        kv_indptr_buf=self.kv_indptr[i],
                        q_indptr_decode_buf=self.q_indptr_decode,
                    )
                )
        else:
            self.attn_backends = [None for _ in range(self.num_steps - 1)]

    def init_forward_metadata(self, batch):
        assert batch.mode == "decode", "draft steps only decode"
        self.kv_indptr.fill_(0)
        for backend in self.attn_backends:
            backend.init_forward_metadata(batch)

    def init_cuda_graph_state(self, max_bs):
        self.graph_q_indptr = self.q_indptr_decode.clone()
        for backend in self.attn_backends:
            backend.init_cuda_graph_state(max_bs)
