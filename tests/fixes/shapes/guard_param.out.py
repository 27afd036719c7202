"""The parent already has a parameter that guards the group: the subclass passes it, no flag is added."""

import torch


class Block:
    def __init__(self, dim, use_post_norm: bool = True):
        self.dim = dim
        self.proj = torch.empty((dim, dim))
        if use_post_norm:
            self.post_norm = torch.ones((dim,))

    def forward(self, x):
        return x @ self.proj * self.post_norm


class BareBlock(Block):
    def __init__(self, dim):
        super().__init__(dim, use_post_norm=False)

    def forward(self, x):
        return x @ self.proj
