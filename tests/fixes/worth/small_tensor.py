import torch


class Base:
    def run(self, x):
        raise NotImplementedError


class Table(Base):
    def __init__(self, n):
        self.lookup = torch.zeros(256)
        self.n = n

    def run(self, x):
        return self.lookup[x] * self.n


class PlainTable(Table):
    def __init__(self, n):
        super().__init__(n)

    def run(self, x):
        return x * self.n
