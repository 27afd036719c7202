"""A paged KV pool: [layer][page, slot, head, dim] for keys and for values."""

import torch


class KVPool:
    def __init__(self, layers, pages, page_size, heads, head_dim, dtype, device):
        shape = (layers, pages + 1, page_size, heads, head_dim)  # page 0 is padding
        self.k = torch.zeros(shape, dtype=dtype, device=device)
        self.v = torch.zeros(shape, dtype=dtype, device=device)
        self.page_size = page_size

    def write(self, layer, locs, k, v):
        pages, slots = locs // self.page_size, locs % self.page_size
        self.k[layer.layer_id, pages, slots] = k
        self.v[layer.layer_id, pages, slots] = v

    def pages(self, layer):
        return self.k[layer.layer_id], self.v[layer.layer_id]
