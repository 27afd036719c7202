"""Forward driver for the attn_pkg test package (the sglang driver's shape, in small)."""

from types import SimpleNamespace


def _values(standin):
    return object.__getattribute__(standin, "_di_values")


class AttnPkgDriver:
    def prepare(self, ctx):
        from attn_pkg.pool import KVPool

        runner = ctx.builder.get("runner")
        values = _values(runner)
        pool = ctx.spec["pool"]
        kv_pool = KVPool(pool["layers"], pool["pages"], values["page_size"], pool["heads"],
                         pool["head_dim"], ctx.torch.float32, ctx.device)
        runner._di_set("kv_pool", kv_pool)
        ctx.state.update(pool=kv_pool, runner=values, pages=pool["pages"], layers=pool["layers"],
                         heads=pool["heads"], head_dim=pool["head_dim"])

    def run_path(self, ctx, backend, name, spec):
        torch, state = ctx.torch, ctx.state
        pool, page = state["pool"], state["runner"]["page_size"]
        pool.k.copy_(ctx.randn(pool.k.shape, torch.float32))
        pool.v.copy_(ctx.randn(pool.v.shape, torch.float32))
        decode = spec["mode"] == "decode"
        seq_lens = spec["seq_lens"]
        extend_lens = [1] * len(seq_lens) if decode else seq_lens
        order = (torch.randperm(state["pages"], generator=ctx.generator) + 1).tolist()
        req_to_token = state["runner"]["req_to_token"]
        out_cache_loc, used = [], 0
        for row, seq in enumerate(seq_lens, start=1):
            pages = order[used:used + -(-seq // page)]
            used += len(pages)
            locs = [pages[pos // page] * page + pos % page for pos in range(seq)]
            req_to_token[row, :seq] = torch.tensor(locs, dtype=req_to_token.dtype)
            out_cache_loc += locs[seq - 1:] if decode else locs
        batch = SimpleNamespace(
            is_decode=decode, req_pool_indices=torch.arange(1, len(seq_lens) + 1),
            seq_lens=torch.tensor(seq_lens, dtype=torch.int32),
            extend_lens=torch.tensor(extend_lens, dtype=torch.int32),
            out_cache_loc=torch.tensor(out_cache_loc), num_heads=state["heads"], head_dim=state["head_dim"])
        backend.init_forward_metadata(batch)
        step = "forward_decode" if decode else "forward_extend"
        tokens = len(out_cache_loc)
        for layer_id in range(state["layers"]):
            layer = SimpleNamespace(layer_id=layer_id, scaling=state["head_dim"] ** -0.5)
            q, k, v = (ctx.randn((tokens, state["heads"], state["head_dim"]), torch.float32) for _ in range(3))
            ctx.output(f"{step} output, layer {layer_id}", getattr(backend, step)(q, k, v, layer, batch))
        return ["init_forward_metadata", step]
