"""An ``or`` test keeps its meaning when the flag is added: it is put in parentheses."""

import torch


class Model:
    def __init__(self, config, device, skip_init_lm_head: bool = False):
        self.config = config
        self.lm_head = None
        if (
            config.tie_embeddings or config.vocab_size > 1000
        ) and not skip_init_lm_head:
            self.lm_head = torch.empty((config.vocab_size, config.hidden_size), device=device)

    def forward(self, x):
        return x @ self.lm_head


class EmbeddingModel(Model):
    def __init__(self, config, device):
        super().__init__(config, device, skip_init_lm_head=True)

    def forward(self, x):
        return x
