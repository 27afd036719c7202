"""One guard per contiguous group of skipped statements: two groups split by work that stays."""

import torch


class Backend:
    def __init__(self, device, max_bs):
        self.device = device
        self.ws = torch.empty((1024,), dtype=torch.uint8, device=device)
        self.ws_index = torch.zeros((max_bs,), dtype=torch.int32, device=device)
        self.max_bs = max_bs
        self.scratch = torch.empty((max_bs, 64), device=device)

    def forward(self, x):
        return x + self.ws[0] + self.ws_index[0] + self.scratch[0]


class LeanBackend(Backend):
    def __init__(self, device, max_bs):
        super().__init__(device, max_bs)

    def forward(self, x):
        return x * self.max_bs
