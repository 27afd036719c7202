"""Locals that only feed the skipped allocations go under the same guard; those that also feed
work that stays, and statements that allocate nothing, stay as they are."""

import torch


class Layer:
    def __init__(self, config, device, skip_init_rotary: bool = False):
        hidden = config.hidden_size
        if not skip_init_rotary:
            theta = getattr(config, "rope_theta", 10000)
            base = theta * 2
            self.rotary = torch.empty((hidden, base), device=device)
        else:
            self.rotary = None
        self.norm_weight = torch.ones((hidden,), device=device)
        self.hidden = hidden

    def forward(self, x):
        return x * self.norm_weight + self.rotary[0]


class NoRopeLayer(Layer):
    def __init__(self, config, device):
        super().__init__(config, device, skip_init_rotary=True)

    def forward(self, x):
        return x * self.norm_weight
