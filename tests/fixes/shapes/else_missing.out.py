"""The ``else`` branch sets to None only what would be missing: an attribute the subclass
replaces gets no ``else``; one nothing else sets does."""

import torch


class Wrapper:
    def __init__(self, workspace):
        self.workspace = workspace


class Backend:
    def __init__(self, device, skip_init_workspace_buffer: bool = False):
        self.device = device
        if not skip_init_workspace_buffer:
            self.workspace_buffer = torch.empty(
                (8 * 1024 * 1024,), dtype=torch.uint8, device=device
            )
            self.decode_wrapper = Wrapper(self.workspace_buffer)
        else:
            self.decode_wrapper = None

    def forward(self, x):
        return self.decode_wrapper.workspace[0] + x


class OwnBackend(Backend):
    def __init__(self, device):
        super().__init__(device, skip_init_workspace_buffer=True)
        self.workspace_buffer = torch.empty((1024,), dtype=torch.uint8, device=device)

    def forward(self, x):
        return self.workspace_buffer[0] + x
