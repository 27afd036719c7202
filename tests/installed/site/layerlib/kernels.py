import torch


class PlanInfo:
    """A plain record: constructing it allocates nothing."""

    def __init__(self, pages):
        self.pages = pages


class StagingPlanner:
    """No module, but it allocates a staging buffer of its own."""

    def __init__(self, size, device="cuda"):
        self.size = size
        self.staging = torch.empty(size, dtype=torch.uint8, device=device)


class TileWrapper:
    """Its name matches the heavy-class pattern, but it only keeps what it is given."""

    def __init__(self, workspace):
        self.workspace = workspace
