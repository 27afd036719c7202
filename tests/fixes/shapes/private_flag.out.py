"""A private attribute's flag has no doubled underscore: ``_scratch`` gives ``skip_init_scratch``."""

import torch


class Sampler:
    def __init__(self, vocab, skip_init_scratch: bool = False):
        self.vocab = vocab
        if not skip_init_scratch:
            self._scratch = torch.empty((vocab,), dtype=torch.float32)
        else:
            self._scratch = None

    def sample(self, logits):
        return logits.argmax() + self._scratch[0]


class GreedySampler(Sampler):
    def __init__(self, vocab):
        super().__init__(vocab, skip_init_scratch=True)

    def sample(self, logits):
        return logits.argmax()
