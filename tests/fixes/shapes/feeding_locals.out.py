"""Locals that only feed the skipped allocations go under the same guard: with them when they are
next to them, moved to its start when work that stays lies between; a local that also feeds
work that stays stays where it is."""

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
        if not skip_init_rotary:
            scale = getattr(config, "proj_scale", 1)
            self.proj = torch.empty((hidden * scale, hidden), device=device)
        else:
            self.proj = None
        self.hidden = hidden

    def forward(self, x):
        return x * self.norm_weight + self.rotary[0] + self.proj[0]


class NoRopeLayer(Layer):
    def __init__(self, config, device):
        super().__init__(config, device, skip_init_rotary=True)

    def forward(self, x):
        return x * self.norm_weight
