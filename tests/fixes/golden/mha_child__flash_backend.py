"""FlashInfer-style multi-head attention backend: the MHA parent class."""

try:
    import torch
except ImportError:  # CPU stand-in for tests
    from fixtures.backends import fake_torch as torch

from fixtures.backends.base import AttentionBackend
from fixtures.backends.buffers import get_buffer
from fixtures.backends.flash_updaters import (
    FlashIndicesUpdaterDecode,
    FlashIndicesUpdaterPrefill,
)
from fixtures.backends.wrappers import (
    DecodePagedWrapper,
    PrefillPagedWrapper,
    PrefillRaggedWrapper,
)

FLASH_WORKSPACE_MB = 8


class FlashBackend(AttentionBackend):
    def __init__(
        self,
        runner,
        skip_prefill=False,
        kv_indptr_buf=None,
        kv_last_page_len_buf=None,
        init_new_workspace=False,
        skip_init_workspace_buffer: bool = False,
    ):
        super().__init__()
        # References into the runner (not allocations).
        self.req_to_token_pool = runner.req_to_token_pool
        self.token_to_kv_pool = runner.token_to_kv_pool
        self.kv_quant_method = self.token_to_kv_pool.quant_method
        self.device = runner.device
        self.page_size = runner.page_size
        self.max_context_len = runner.context_len
        self.skip_prefill = skip_prefill
        self.num_wrappers = 2 if runner.sliding_window_size else 1
        max_bs = runner.max_bs

        # Shared per-process scratch unless the caller asks for a private one.
        if not skip_init_workspace_buffer:
            ws = get_buffer(
                "flash_ws",
                lambda: torch.empty(
                    FLASH_WORKSPACE_MB * 1024 * 1024,
                    dtype=torch.uint8,
                    device=runner.device,
                ),
            )
            if init_new_workspace:
                self.workspace_buffer = torch.empty(
                    FLASH_WORKSPACE_MB * 1024 * 1024,
                    dtype=torch.uint8,
                    device=runner.device,
                )
            else:
                self.workspace_buffer = ws

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
        if not skip_init_workspace_buffer:
            if not self.skip_prefill:
                self.qo_indptr = [
                    torch.zeros((max_bs + 1,), dtype=torch.int32, device=runner.device)
                    for _ in range(self.num_wrappers)
                ]

            self.prefill_wrapper_ragged = PrefillRaggedWrapper(self.workspace_buffer)
            self.prefill_wrappers_paged = []
            self.decode_wrappers = []
            for _ in range(self.num_wrappers):
                if not skip_prefill:
                    self.prefill_wrappers_paged.append(
                        PrefillPagedWrapper(self.workspace_buffer)
                    )
                self.decode_wrappers.append(
                    DecodePagedWrapper(
                        self.workspace_buffer, use_tensor_cores=runner.num_heads > 4
                    )
                )

            if not skip_prefill:
                self.indices_updater_prefill = FlashIndicesUpdaterPrefill(runner, self)
            self.indices_updater_decode = FlashIndicesUpdaterDecode(runner, self)
        else:
            self.qo_indptr = None
            self.prefill_wrapper_ragged = None
            self.prefill_wrappers_paged = None
            self.decode_wrappers = None
            self.indices_updater_prefill = None
            self.indices_updater_decode = None

        self.forward_metadata = None
        self.graph_metadata = {}  # cheap container, filled lazily

    def _kv_write_scales(self, layer):
        if self.kv_quant_method.needs_global_scale():
            return None, None
        return layer.k_scale, layer.v_scale

    def _plan_prefill(self, batch):
        # Private: only this class's own prefill entry points call it.
        self.indices_updater_prefill.update(
            batch, self.qo_indptr, self.prefill_wrappers_paged, self.prefill_wrapper_ragged
        )
        return self.prefill_wrappers_paged

    def _wrapper_idx(self, layer):
        return 1 if (self.num_wrappers == 2 and layer.sliding_window) else 0

    def init_forward_metadata(self, batch):
        if batch.mode == "decode":
            self.indices_updater_decode.update(batch, self.decode_wrappers)
            self.forward_metadata = ("decode", self.decode_wrappers)
        else:
            self.forward_metadata = ("extend", self._plan_prefill(batch))

    def init_cuda_graph_state(self, max_bs):
        self.cuda_graph_kv_indices = torch.zeros(
            (max_bs * self.max_context_len,), dtype=torch.int32, device=self.device
        )
        # Captured decode gets its own wrappers on the same scratch space.
        self.graph_metadata["decode"] = [
            DecodePagedWrapper(self.workspace_buffer) for _ in range(self.num_wrappers)
        ]
        self.graph_metadata["kv_indptr"] = [x.clone() for x in self.kv_indptr]
        self.graph_metadata["last_page_len"] = self.kv_last_page_len.clone()

    def get_graph_fill_value(self):
        return 1

    def forward_extend(self, q, k, v, layer, batch):
        k_scale, v_scale = self._kv_write_scales(layer)
        self.token_to_kv_pool.set_kv(layer.layer_id, k, v, k_scale, v_scale)
        if self.forward_metadata is None or self.forward_metadata[0] != "extend":
            self._plan_prefill(batch)
        if batch.has_prefix:
            return self.prefill_wrappers_paged[self._wrapper_idx(layer)].run(q, k, v)
        return self.prefill_wrapper_ragged.run(q, k, v)

    def forward_decode(self, q, k, v, layer, batch):
        k_scale, v_scale = self._kv_write_scales(layer)
        self.token_to_kv_pool.set_kv(layer.layer_id, k, v, k_scale, v_scale)
        return self.decode_wrappers[self._wrapper_idx(layer)].run(q, k, v)
