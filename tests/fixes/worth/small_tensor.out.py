import torch


class Base:
    def run(self, x):
        raise NotImplementedError


class Table(Base):
    def __init__(self, n, skip_init_lookup: bool = False):
        if not skip_init_lookup:
            self.lookup = torch.zeros(256)
        else:
            self.lookup = None
        self.n = n

    def run(self, x):
        return self.lookup[x] * self.n


class PlainTable(Table):
    def __init__(self, n):
        super().__init__(n, skip_init_lookup=True)

    def run(self, x):
        return x * self.n
