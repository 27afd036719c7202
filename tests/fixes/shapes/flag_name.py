"""`--flag-name` names the new parameter."""

import torch


class Sampler:
    def __init__(self, vocab):
        self.vocab = vocab
        self._scratch = torch.empty((vocab,), dtype=torch.float32)

    def sample(self, logits):
        return logits.argmax() + self._scratch[0]


class GreedySampler(Sampler):
    def __init__(self, vocab):
        super().__init__(vocab)

    def sample(self, logits):
        return logits.argmax()
