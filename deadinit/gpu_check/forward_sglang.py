"""Forward driver for sglang attention backends: a real KV pool, real batches, real q/k/v.

Loaded by file path inside the measurement child; sglang and torch are imported in
the methods. What it does per path is written in the profile (``[forward]``)::

    [forward.pool]            # built before the constructor: replaces the stand-in pool and
                              # kv_index_translator (a real, non-translating KVIndexTranslator)
    kind = "mha"              # "mha" (MHATokenToKVPool) or "mla" (MLATokenToKVPool)
    pages = 64                # pool size in pages (page size: model_runner.page_size)
    layers = 2
    head_num = 8              # mha: KV heads and head size
    head_dim = 128
    kv_lora_rank = 512        # mla
    qk_rope_head_dim = 64
    [forward.layers.mha]      # RadixAttention layers the paths use (layer ids 0..layers-1)
    num_heads = 32
    head_dim = 128
    num_kv_heads = 8
    [forward.path.decode]
    mode = "decode"           # "decode", "extend", "target-verify" or "cuda-graph-decode"
    seq_lens = [37, 64, 130, 200]          # decode: lengths after this step's token
    layer = "mha"
    inputs = { q = "bfloat16[T,32,128]", k = "bfloat16[T,8,128]", v = "bfloat16[T,8,128]" }
    call = { save_kv_cache = true }        # more keyword arguments of backend.forward

Extend paths give ``prefix_lens`` and ``extend_lens``; ``target-verify`` gives ``prefix_lens``
and ``draft_tokens`` (a chain-shaped EAGLE verify: ``EagleVerifyInput`` with topk 1 and a
causal mask over the drafts); ``cuda-graph-decode`` gives
``max_bs`` and ``capture_seq_lens`` (the batch captured) besides ``seq_lens`` (the one
replayed): it calls ``init_cuda_graph_state``, then ``init_forward_metadata_out_graph``
(``in_capture=True``) and ``init_forward_metadata_in_graph`` and the forward, then the
same with ``in_capture=False`` for the replay, eagerly (no CUDA graph is recorded).
Input shapes use ``T`` for the batch's token count; ``"none"`` passes None and
``"@k"`` passes another input. Request rows start at 1 (row 0 is sglang's padding
row); pages are drawn from a seeded permutation, so both trees see the same layout.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

_INPUT = re.compile(r"^(\w+)\[([\w,\s]*)\]$")


def _values(standin: Any) -> dict[str, Any]:
    """A stand-in's values, read without logging (the log is the constructor's)."""
    return object.__getattribute__(standin, "_di_values")


class SglangDriver:
    def prepare(self, ctx) -> None:
        from sglang.srt.mem_cache.memory_pool import MHATokenToKVPool, MLATokenToKVPool  # noqa: PLC0415 - sglang only in the child process

        spec = ctx.spec.get("pool", {})
        runner = ctx.builder.get("model_runner")
        values = _values(runner)
        page = int(values["page_size"])
        layers = int(spec.get("layers", 2))
        size = int(spec.get("pages", 64)) * page
        common = dict(
            size=size,
            page_size=page,
            dtype=values["kv_cache_dtype"],
            layer_num=layers,
            device=ctx.device,
            enable_memory_saver=False,
        )
        if spec.get("kind", "mha") == "mla":
            pool = MLATokenToKVPool(
                kv_lora_rank=int(spec["kv_lora_rank"]), qk_rope_head_dim=int(spec["qk_rope_head_dim"]), **common
            )
        else:
            pool = MHATokenToKVPool(
                head_num=int(spec["head_num"]), head_dim=int(spec["head_dim"]), enable_alt_stream=False, **common
            )
        runner._di_set("token_to_kv_pool", pool)
        allocator = values.get("token_to_kv_pool_allocator")
        if allocator is not None:
            allocator._di_set("get_kvcache", lambda *a, **k: pool)
        req_to_token = _values(values["req_to_token_pool"])["req_to_token"]
        if spec.get("index_translator", True):
            from sglang.srt.mem_cache.kv_index_translator import KVIndexTranslator  # noqa: PLC0415 - sglang only in the child process, and not in every release

            runner._di_set(
                "kv_index_translator",
                KVIndexTranslator(
                    req_to_token=req_to_token,
                    token_to_kv_pool_allocator=allocator,
                    token_to_kv_pool=pool,
                    page_size=page,
                    device=ctx.device,
                ),
            )
        ctx.state.update(
            pool=pool,
            runner=runner,
            page=page,
            layers=layers,
            pages=int(spec.get("pages", 64)),
            req_to_token=req_to_token,
        )

    # -- inputs -------------------------------------------------------------------------
    def _fill_pool(self, ctx) -> None:
        """Seeded values in every layer's K/V pages, so prefix reads see real data."""
        pool = ctx.state["pool"]
        torch = ctx.torch
        buffers = []
        for name in ("k_buffer", "v_buffer", "kv_buffer"):
            buffers += list(getattr(pool, name, None) or [])
        for buf in buffers:
            values = ctx.randn(buf.shape, torch.float32, device="cpu").to(pool.dtype)
            if values.dtype != buf.dtype:
                values = values.view(buf.dtype)
            buf.copy_(values.to(buf.device))

    def _layout(self, ctx, seq_lens: list[int]) -> list[list[int]]:
        """Token locations per request: whole pages from a seeded permutation."""
        torch = ctx.torch
        page, pages = ctx.state["page"], ctx.state["pages"]
        order = (torch.randperm(pages, generator=ctx.generator) + 1).tolist()
        locs, used = [], 0
        for seq in seq_lens:
            need = -(-seq // page)
            if used + need > len(order):
                raise ValueError(f"the profile's pool ({pages} pages) is too small for {seq_lens}")
            mine = order[used : used + need]
            used += need
            locs.append([mine[pos // page] * page + pos % page for pos in range(seq)])
        return locs

    def make_batch(self, ctx, mode: str, prefix_lens: list[int], extend_lens: list[int]):
        from sglang.srt.model_executor.forward_batch_info import ForwardBatch, ForwardMode  # noqa: PLC0415 - sglang only in the child process

        torch, device = ctx.torch, ctx.device
        seq_lens = [p + e for p, e in zip(prefix_lens, extend_lens, strict=False)]
        bs = len(seq_lens)
        layout = self._layout(ctx, seq_lens)
        req_to_token = ctx.state["req_to_token"]
        out_cache_loc, positions = [], []
        for row, (locs, prefix) in enumerate(zip(layout, prefix_lens, strict=False), start=1):
            req_to_token[row, : len(locs)] = torch.tensor(locs, dtype=req_to_token.dtype)
            out_cache_loc += locs[prefix:]
            positions += list(range(prefix, len(locs)))
        tokens = len(out_cache_loc)
        forward_mode = {
            "decode": ForwardMode.DECODE,
            "extend": ForwardMode.EXTEND,
            "target-verify": ForwardMode.TARGET_VERIFY,
        }[mode]
        batch = ForwardBatch(
            forward_mode=forward_mode,
            batch_size=bs,
            input_ids=torch.zeros(tokens, dtype=torch.int64, device=device),
            req_pool_indices=torch.arange(1, bs + 1, dtype=torch.int64, device=device),
            seq_lens=torch.tensor(seq_lens, dtype=torch.int32, device=device),
            seq_lens_cpu=torch.tensor(seq_lens, dtype=torch.int32),
            out_cache_loc=torch.tensor(out_cache_loc, dtype=torch.int64, device=device),
            seq_lens_sum=sum(seq_lens),
            positions=torch.tensor(positions, dtype=torch.int64, device=device),
        )
        if mode != "decode":
            starts = [sum(extend_lens[:i]) for i in range(bs)]
            batch.extend_prefix_lens = torch.tensor(prefix_lens, dtype=torch.int32, device=device)
            batch.extend_prefix_lens_cpu = list(prefix_lens)
            batch.extend_seq_lens = torch.tensor(extend_lens, dtype=torch.int32, device=device)
            batch.extend_seq_lens_cpu = list(extend_lens)
            batch.extend_start_loc = torch.tensor(starts, dtype=torch.int32, device=device)
            batch.extend_num_tokens = tokens
        if mode == "target-verify":
            self._verify_input(ctx, batch, prefix_lens, extend_lens[0])
        return batch

    def _verify_input(self, ctx, batch, prefix_lens: list[int], drafts: int) -> None:
        """A chain-shaped (topk 1) EAGLE verify: each draft token sees the prefix and the drafts before it."""
        from sglang.srt.model_executor.forward_batch_info import CaptureHiddenMode  # noqa: PLC0415 - sglang only in the child process
        from sglang.srt.speculative.eagle_info import EagleVerifyInput  # noqa: PLC0415 - sglang only in the child process

        torch, device, bs = ctx.torch, ctx.device, len(prefix_lens)
        batch.seq_lens = torch.tensor(prefix_lens, dtype=torch.int32, device=device)
        batch.seq_lens_cpu = torch.tensor(prefix_lens, dtype=torch.int32)
        batch.seq_lens_sum = sum(prefix_lens)
        masks = []
        for prefix in prefix_lens:
            mask = torch.ones(drafts, prefix + drafts, dtype=torch.bool)
            mask[:, prefix:] = torch.ones(drafts, drafts, dtype=torch.bool).tril()
            masks.append(mask.reshape(-1))
        retrieve = torch.arange(drafts, dtype=torch.long, device=device).repeat(bs, 1)
        batch.spec_info = EagleVerifyInput(
            draft_token=batch.input_ids,
            custom_mask=torch.cat(masks).to(device),
            positions=batch.positions,
            retrieve_index=retrieve,
            retrieve_next_token=torch.full_like(retrieve, -1),
            retrieve_next_sibling=torch.full_like(retrieve, -1),
            retrieve_cum_len=torch.arange(bs + 1, dtype=torch.int32, device=device) * drafts,
            spec_steps=drafts - 1,
            topk=1,
            draft_token_num=drafts,
            capture_hidden_mode=CaptureHiddenMode.FULL,
            seq_lens_sum=batch.seq_lens_sum,
            seq_lens_cpu=batch.seq_lens_cpu,
        )

    def _inputs(self, ctx, spec: dict[str, Any], tokens: int) -> dict[str, Any]:
        torch = ctx.torch
        made: dict[str, Any] = {}
        for name, text in spec.get("inputs", {}).items():
            if text == "none":
                made[name] = None
                continue
            if text.startswith("@"):
                made[name] = made[text[1:]]
                continue
            match = _INPUT.match(text.replace(" ", ""))
            if not match:
                raise ValueError(f"bad input spec {name} = {text!r}; expected DTYPE[T,d1,...]")
            dtype, dims = match.groups()
            shape = [tokens if d == "T" else int(d) for d in dims.split(",") if d]
            made[name] = ctx.randn(shape, getattr(torch, dtype))
        return made

    def _layers(self, ctx, spec: dict[str, Any]) -> list[Any]:
        from sglang.srt.layers.radix_attention import RadixAttention  # noqa: PLC0415 - sglang only in the child process

        layer = spec.get("layer", "default")
        params = dict(ctx.spec.get("layers", {}).get(layer, {})) if isinstance(layer, str) else dict(layer)
        if not params:
            raise ValueError(f"forward path needs [forward.layers.{layer}]")
        params.setdefault("scaling", float(params["head_dim"]) ** -0.5)
        return [RadixAttention(layer_id=i, **params) for i in range(ctx.state["layers"])]

    # -- running ------------------------------------------------------------------------
    def _forward_layers(self, ctx, backend, batch, spec, label: str) -> None:
        tokens = int(batch.out_cache_loc.shape[0])
        for layer in self._layers(ctx, spec):
            inputs = self._inputs(ctx, spec, tokens)
            q, k, v = inputs.pop("q"), inputs.pop("k", None), inputs.pop("v", None)
            kwargs = dict(spec.get("call", {}))
            kwargs.update(inputs)
            out = backend.forward(q, k, v, layer, batch, **kwargs)
            ctx.output(f"{label} output, layer {layer.layer_id}", out)

    def _context(self, backend):
        try:
            from sglang.srt.model_executor.forward_context import ForwardContext, forward_context  # noqa: PLC0415 - sglang only in the child process, and not in every release
        except ImportError:
            return contextlib.nullcontext()
        return forward_context(ForwardContext(attn_backend=backend))

    def run_path(self, ctx, backend, name: str, spec: dict[str, Any]) -> list[str]:
        torch = ctx.torch
        mode = spec.get("mode", name)
        self._fill_pool(ctx)
        steps: list[str] = []
        with torch.no_grad(), self._context(backend):
            if mode in ("decode", "extend", "target-verify"):
                batch = self._batch_for(ctx, mode, spec, "")
                backend.init_forward_metadata(batch)
                steps.append("init_forward_metadata")
                step = "forward_decode" if mode == "decode" else "forward_extend"
                self._forward_layers(ctx, backend, batch, spec, step)
                steps.append(step)
            elif mode == "cuda-graph-decode":
                max_bs = int(spec.get("max_bs", 8))
                backend.init_cuda_graph_state(max_bs, max_bs)
                steps.append("init_cuda_graph_state")
                for phase, key in (("capture", "capture_seq_lens"), ("replay", "seq_lens")):
                    batch = self._batch_for(ctx, "decode", spec, key)
                    backend.init_forward_metadata_out_graph(batch, in_capture=phase == "capture")
                    backend.init_forward_metadata_in_graph(batch)
                    steps += [f"init_forward_metadata_out_graph ({phase})", f"init_forward_metadata_in_graph ({phase})"]
                    self._forward_layers(ctx, backend, batch, spec, f"forward_decode ({phase})")
                    steps.append(f"forward_decode ({phase})")
            else:
                raise ValueError(f"unknown forward mode {mode!r}")
        return steps

    def _batch_for(self, ctx, mode: str, spec: dict[str, Any], key: str):
        if mode == "decode":
            seq_lens = [int(s) for s in spec[key or "seq_lens"]]
            return self.make_batch(ctx, "decode", [s - 1 for s in seq_lens], [1] * len(seq_lens))
        if mode == "target-verify":
            prefix = [int(p) for p in spec["prefix_lens"]]
            return self.make_batch(ctx, mode, prefix, [int(spec["draft_tokens"])] * len(prefix))
        extend = [int(e) for e in spec["extend_lens"]]
        prefix = [int(p) for p in spec.get("prefix_lens", [0] * len(extend))]
        return self.make_batch(ctx, "extend", prefix, extend)
