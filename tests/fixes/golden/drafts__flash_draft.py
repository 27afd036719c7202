"""Speculative multi-step draft: one decode-only FlashBackend per draft step."""

try:
    import torch
except ImportError:  # CPU stand-in for tests
    from fixtures.backends import fake_torch as torch

from fixtures.backends.flash_backend import FlashBackend


class FlashMultiStepDraft:
    def __init__(self, runner, topk, num_steps, skip_init_attn_backends: bool = False):
        self.topk = topk
        self.num_steps = num_steps
        max_bs = runner.max_bs * topk
        self.kv_indptr = torch.zeros(
            (num_steps, max_bs + 1), dtype=torch.int32, device=runner.device
        )
        self.kv_last_page_len = torch.ones(
            (max_bs,), dtype=torch.int32, device=runner.device
        )
        if not skip_init_attn_backends:
            self.attn_backends = []
            for i in range(self.num_steps - 1):
                self.attn_backends.append(
                    FlashBackend(
                        runner,
                        skip_prefill=True,
                        kv_indptr_buf=self.kv_indptr[i],
                        kv_last_page_len_buf=self.kv_last_page_len,
                    )
                )
        else:
            self.attn_backends = [None for _ in range(self.num_steps - 1)]

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
