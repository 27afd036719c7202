"""Direct-base rewrite: Child derives from Base and builds only what it uses."""

import torch

WORKSPACE_BYTES = 1 << 20  # 1 MiB
WRAPPER_BYTES = 64 << 10  # 64 KiB of private buffer per wrapper


class Base:
    def __init__(self):
        self.forward_metadata = None


class Wrapper:
    def __init__(self, workspace):
        self._workspace = workspace
        self._int_buffer = torch.empty(WRAPPER_BYTES, dtype=torch.uint8, device=workspace.device)


class Parent(Base):
    def __init__(self, runner):
        super().__init__()
        self.device = runner.device
        self.req_to_token = runner.req_to_token  # the runner's, not allocated here
        self.workspace = torch.empty(WORKSPACE_BYTES, dtype=torch.uint8, device=runner.device)
        self.wrappers = [Wrapper(self.workspace) for _ in range(2)]
        self.kv_indptr = torch.zeros(runner.max_bs + 1, dtype=torch.int32, device=runner.device)

    def plan(self):
        return [w._int_buffer.numel() for w in self.wrappers]


class Child(Base):
    def __init__(self, runner):
        super().__init__()
        self.device = runner.device
        self.req_to_token = runner.req_to_token
        self.kv_indptr = torch.zeros(runner.max_bs + 1, dtype=torch.int32, device=runner.device)
        self.workspace = torch.zeros(2 * WORKSPACE_BYTES, dtype=torch.uint8, device=runner.device)
        self.page_table = torch.zeros((runner.max_bs, 64), dtype=torch.int32, device=runner.device)

    def plan(self):
        return self.page_table.shape
