"""One flag guards a workspace and the wrappers built from it: it is named after the workspace,
the allocation the others are built from."""

import torch


class PrefillWrapper:
    def __init__(self, workspace):
        self.workspace = workspace


class DecodeWrapper:
    def __init__(self, workspace):
        self.workspace = workspace


class AttnBackend:
    def __init__(self, device, num_wrappers, skip_init_workspace_buffer: bool = False):
        self.device = device
        self.num_wrappers = num_wrappers
        self.decode_wrappers = []
        if not skip_init_workspace_buffer:
            self.workspace_buffer = torch.empty(
                (128 * 1024 * 1024,), dtype=torch.uint8, device=device
            )
            self.prefill_wrapper = PrefillWrapper(self.workspace_buffer)
            for _ in range(num_wrappers):
                self.decode_wrappers.append(DecodeWrapper(self.workspace_buffer))
        else:
            self.workspace_buffer = None
            self.prefill_wrapper = None
        self.forward_metadata = None

    def forward(self, x):
        return x, self.prefill_wrapper, self.decode_wrappers


class KernelBackend(AttnBackend):
    def __init__(self, device, num_wrappers):
        super().__init__(device, num_wrappers, skip_init_workspace_buffer=True)

    def forward(self, x):
        return x * self.num_wrappers
