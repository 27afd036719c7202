"""A skipped statement that is the whole body of an ``if``: the condition is extended.

The attribute is set to None before the ``if`` and stays so: no ``else`` is needed; the local
the test reads stays where it is.  A ``try`` whose body is skipped is skipped whole."""

import torch


def pool_size_mb():
    return 64


class Pool:
    def __init__(self, size):
        self.data = torch.empty((size,), dtype=torch.uint8)


class Receiver:
    def __init__(self, device, cached):
        self.device = device
        self.pool = None
        mb = pool_size_mb()
        if mb and mb > 0:
            self.pool = Pool(mb * 1024 * 1024)
        self.ready = device is not None
        self.table = None
        if cached or mb > 8:
            try:
                self.table = torch.empty((mb, 16), device=device)
            except RuntimeError:
                print("no table")
                self.table = None

    def receive(self, x):
        return x, self.pool, self.table


class PlainReceiver(Receiver):
    def __init__(self, device, cached):
        super().__init__(device, cached)

    def receive(self, x):
        return x
