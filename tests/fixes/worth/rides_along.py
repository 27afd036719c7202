import torch


class Base:
    def run(self, x):
        raise NotImplementedError


class Backend(Base):
    def __init__(self, n):
        self.workspace = torch.empty(1 << 20, dtype=torch.uint8)
        self.lens = torch.zeros(16, dtype=torch.int32)
        self.n = n

    def run(self, x):
        return self.workspace[: self.n], self.lens


class LightBackend(Backend):
    def __init__(self, n):
        super().__init__(n)

    def run(self, x):
        return x * self.n
