"""Skip-flag rewrite: TrtLikeBackend asks the parent not to build the workspace and wrapper."""

import torch

from .kernels import RaggedWrapper, context_attention, paged_decode

WORKSPACE_BYTES = 1 << 20


class Metadata:
    def __init__(self, block_tables, seq_lens, cu_seqlens_q):
        self.block_tables, self.seq_lens, self.cu_seqlens_q = block_tables, seq_lens, cu_seqlens_q


class FlashLikeBackend:
    def __init__(self, runner, skip_init_workspace_buffer: bool = False):
        self.device = runner.device
        self.page_size = runner.page_size
        self.req_to_token = runner.req_to_token
        self.kv_pool = runner.kv_pool
        if not skip_init_workspace_buffer:
            self.workspace_buffer = torch.empty(WORKSPACE_BYTES, dtype=torch.uint8, device=runner.device)
            self.ragged_wrapper = RaggedWrapper(self.workspace_buffer)
        else:
            self.workspace_buffer = None
            self.ragged_wrapper = None
        self.window_left = -1 if runner.sliding_window is None else runner.sliding_window
        self.max_pages = runner.context_len // runner.page_size
        self.forward_metadata = None

    def build_metadata(self, batch):
        rows = self.req_to_token[batch.req_pool_indices, : self.max_pages * self.page_size]
        block_tables = (rows[:, :: self.page_size] // self.page_size).to(torch.int32)
        cu_seqlens_q = torch.nn.functional.pad(torch.cumsum(batch.extend_lens, 0), (1, 0)).to(torch.int32)
        return Metadata(block_tables, batch.seq_lens, cu_seqlens_q)

    def init_forward_metadata(self, batch):
        self.forward_metadata = self.build_metadata(batch)
        if not batch.is_decode:
            kv_indptr = torch.nn.functional.pad(torch.cumsum(batch.seq_lens, 0), (1, 0)).to(torch.int32)
            self.ragged_wrapper.plan(self.forward_metadata.cu_seqlens_q, kv_indptr,
                                     batch.num_heads, batch.head_dim)

    def forward_decode(self, q, k, v, layer, batch):
        self.kv_pool.write(layer, batch.out_cache_loc, k, v)
        md = self.forward_metadata
        return paged_decode(q, self.kv_pool.pages(layer), self.workspace_buffer, md.block_tables,
                            md.seq_lens, layer.scaling, window_left=self.window_left)

    def forward_extend(self, q, k, v, layer, batch):
        self.kv_pool.write(layer, batch.out_cache_loc, k, v)
        return self.ragged_wrapper.run(q, k, v)


class TrtLikeBackend(FlashLikeBackend):
    def __init__(self, runner):
        super().__init__(runner, skip_init_workspace_buffer=True)
        self.workspace_buffer = torch.zeros(2 * WORKSPACE_BYTES, dtype=torch.uint8, device=runner.device)

    def init_forward_metadata(self, batch):
        self.forward_metadata = self.build_metadata(batch)

    def forward_extend(self, q, k, v, layer, batch):
        self.kv_pool.write(layer, batch.out_cache_loc, k, v)
        md = self.forward_metadata
        return context_attention(q, self.kv_pool.pages(layer), self.workspace_buffer, md.block_tables,
                                 md.seq_lens, md.cu_seqlens_q, layer.scaling)
