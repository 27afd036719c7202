import torch


class Base:
    def run(self, x):
        raise NotImplementedError


class Backend(Base):
    def __init__(self, n, skip_init_workspace: bool = False):
        if not skip_init_workspace:
            self.workspace = torch.empty(1 << 20, dtype=torch.uint8)
            self.lens = torch.zeros(16, dtype=torch.int32)
        else:
            self.workspace = None
            self.lens = None
        self.n = n

    def run(self, x):
        return self.workspace[: self.n], self.lens


class LightBackend(Backend):
    def __init__(self, n):
        super().__init__(n, skip_init_workspace=True)

    def run(self, x):
        return x * self.n
