"""Tokenspeed-style MLA backend: a TrtMLABackend with its own decode kernel."""

try:
    import torch
except ImportError:  # CPU stand-in for tests
    from fixtures.backends import fake_torch as torch

from fixtures.backends.trt_mla_backend import TrtMLABackend

SPEED_NUM_SMS = 4
SPEED_MAX_Q_LEN = 8
_speed_workspaces = {}


def _get_speed_workspace(device, num_heads, kv_lora_rank, max_q_len=SPEED_MAX_Q_LEN):
    # Grow-only cache keyed by device; sized for the worst-case launch.
    needed = SPEED_NUM_SMS * num_heads * max_q_len * (kv_lora_rank + 1) * 4
    key = f"speed_ws:{device}"
    cached = _speed_workspaces.get(key)
    if cached is None or cached.numel() < needed:
        _speed_workspaces[key] = torch.empty(needed, dtype=torch.int8, device=device)
    return _speed_workspaces[key]


class SpeedMLABackend(TrtMLABackend):
    def __init__(
        self, runner, skip_prefill=False, kv_indptr_buf=None, q_indptr_decode_buf=None
    ):
        super().__init__(
            runner,
            skip_prefill,
            kv_indptr_buf,
            q_indptr_decode_buf,
            skip_init_workspace_buffer=True,
        )
        if self.page_size not in (32, 64):
            raise ValueError(f"page_size must be 32 or 64, got {self.page_size}")
        self._speed_workspace = _get_speed_workspace(
            self.device, self.num_q_heads, self.kv_lora_rank
        )

    def forward_decode(self, q, k, v, layer, batch):
        self.token_to_kv_pool.set_kv(layer.layer_id, k, v)
        if self.decode_meta is None:
            raise RuntimeError("decode metadata missing")
        return q.clone() if self._speed_workspace.nbytes else q
