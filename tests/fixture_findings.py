"""The findings the shipped fixtures must give (fixtures/EXPECTED.md), as (code, class, parent, attribute);
class and parent by their short names. Read by ``test_fixtures_golden``."""

EXPECTED = {  # fixtures/EXPECTED.md, table A
    ("DI001", "TrtMHABackend", "FlashBackend", "workspace_buffer"),
    ("DI002", "TrtMHABackend", "FlashBackend", "qo_indptr"),
    ("DI002", "TrtMHABackend", "FlashBackend", "prefill_wrapper_ragged"),
    ("DI002", "TrtMHABackend", "FlashBackend", "prefill_wrappers_paged"),
    ("DI002", "TrtMHABackend", "FlashBackend", "decode_wrappers"),
    ("DI002", "TrtMHABackend", "FlashBackend", "indices_updater_prefill"),
    ("DI002", "TrtMHABackend", "FlashBackend", "indices_updater_decode"),
    ("DI001", "TrtMLABackend", "FlashMLABackend", "workspace_buffer"),
    ("DI002", "TrtMLABackend", "FlashMLABackend", "decode_wrapper"),
    ("DI002", "TrtMLABackend", "FlashMLABackend", "indices_updater_decode"),
    ("DI002", "SpeedMLABackend", "TrtMLABackend", "workspace_buffer"),
    ("DI002", "SpeedMLABackend", "TrtMLABackend", "kv_split_counter"),
    ("DI001", "TrtMHAMultiStepDraft", "FlashMultiStepDraft", "attn_backends"),
    ("DI001", "TrtMLAMultiStepDraft", "FlashMLAMultiStepDraft", "attn_backends"),
    ("DI001", "AliasedFlash", "FlashBackend", "prefill_wrapper_ragged"),
    ("DI001", "FromModule", "Parent", "scratch"),
    ("DI002", "modeling_widget.WidgetAttention", "RotaryAttention", "cos_sin_cache"),  # generated, imported
    ("DI002", "modular_gadget.GadgetAttention", "RotaryAttention", "cos_sin_cache"),  # template, imported
    ("DI002", "modular_sprocket.SprocketAttention", "RotaryAttention", "cos_sin_cache"),  # ambiguous origin
    ("DI003", "TrtMHABackend", "FlashBackend", ""),  # fixtures/EXPECTED.md, DI003 table
    # fixtures/EXPECTED.md, table C (fixtures/precision/)
    ("DI001", "WideMLP", "GatedMLP", "gate_proj"),  # super(WideMLP, self) is plain super()
    ("DI001", "DecoderCrossAttention", "KVCacheMixin", "kv_scratch"),  # KVCache.__init__ through an alias
    ("DI002", "CrossAttention", "KVCacheMixin", "kv_scratch"),  # explicit KVCacheMixin.__init__, two bases
    ("DI004", "HostKVPool", "PagedKVPool", "__init__"),  # a call that cannot bind
    ("DI002", "TritonDecodeBuilder", "MetadataBuilder", "kv_indices"),  # subscripted generic base
    ("DI002", "TritonDecodeBuilder", "MetadataBuilder", "qo_indptr"),
    ("DI001", "PinnedDecodeBuilder", "MetadataBuilder", "page_table"),  # Base[Meta], Mixin
    ("DI002", "TinyModel", "ModelBase", "logit_buf"),  # dynamic helpers cannot name it
    ("DI001", "DroplessExperts", "ExpertsBase", "expert_cache"),  # del is not a read: a removal
    ("DI001", "DroplessExperts", "ExpertsBase", "router_buf"),  # delattr is not a read: a removal
    ("DI002", "DenseMoEBlock", "MoEBlock", "bias_cache"),  # a guard the subclass does not decide
    ("DI002", "CausalOmniTransformer", "OmniTransformer", "depth_head"),  # raises on the other guards
    ("DI002", "DenseQueryAttention", "LatentAttention", "kv_down"),  # the copy changes only q_rank
    ("DI002", "NarrowAttention", "LatentAttention", "q_down"),  # the copy changes another field
    ("DI002", "NarrowAttention", "LatentAttention", "kv_down"),
    ("DI002", "FirstScaleEncoder", "MergingEncoder", "mergers"),  # a list changed but not emptied
    ("DI002", "FirstScaleEncoder", "MergingEncoder", "adapters"),
    ("DI002", "NotSmallRopeAttention", "RopeAttention", "wide_rope"),  # an assert that decides nothing
    ("DI002", "NotSmallRopeAttention", "RopeAttention", "bf16_cache"),
    # fixtures/EXPECTED.md, "Modules, parameters, buffers and fix levels"
    ("DI001", "DeepTower", "PatchTower", "blocks"),
    ("DI002", "DeepTower", "PatchTower", "post_norm"),
    ("DI002", "PlainTower", "PatchTower", "post_norm"),
    ("DI002", "FloatLinear", "QuantLinear", "weight_scale"),
    ("DI002", "FloatLinear", "QuantLinear", "input_scale"),
    ("DI002", "FloatLinear", "QuantLinear", "lookup"),
    ("DI002", "ArgmaxSampler", "TableSampler", "_table"),
    ("DI002", "ArgmaxSampler", "TableSampler", "_scratch"),
    ("DI002", "ParkedAdapterStack", "AdapterStack", "adapter"),  # walks that read no value
    ("DI002", "ParkedAdapterStack", "AdapterStack", "probe"),
    ("DI002", "ParkedAdapterStack", "AdapterStack", "scratch"),
    ("DI002", "ShardedAdapterStack", "AdapterStack", "scratch"),  # named_children() reads the modules only
    ("DI002", "FrozenProjectorStack", "ProjectorStack", "window"),  # a walk over another object: modules only
    ("DI002", "QuietTapStack", "TapStack", "tap"),  # a recursive walker's children stay in it
    ("DI002", "LeanMixStack", "MixStack", "conv"),  # a walker that hands out only GroupNorms
    ("DI002", "LeanMixStack", "MixStack", "plain"),
    ("DI002", "LeanGateStack", "GateStack", "gate"),  # an early exit unless a GroupNorm
    ("DI002", "GreedySampler", "HistorySampler", "history"),
    ("DI002", "SkippingEmbedder", "SkippingLM", "draft_head"),  # table M, M10-M13: weight loaders
    ("DI002", "LookupEmbedder", "LookupLM", "pooler"),
    ("DI002", "StrictEmbedder", "StrictLM", "pooler"),
    ("DI002", "RaisingEmbedder", "RaisingLM", "pooler"),
    ("DI002", "TinyEmbedder", "TinyLM", "layers"),  # fixtures/EXPECTED.md, table S
    ("DI002", "TinyEmbedder", "TinyLM", "lm_head"),
    ("DI001", "TinyTiedLM", "TinyLM", "lm_head"),
    ("DI001", "draft.TinyDecoderLayer", "TinyDecoderLayer", "mlp"),
    ("DI002", "HubNormOnly", "HubLM", "lm_head"),
    ("DI002", "EagerDecodeBuffers", "DecodeBuffers", "staging"),  # table S, S6-S8: sizes through helpers
    ("DI002", "EagerDecodeBuffers", "DecodeBuffers", "counters"),
    ("DI002", "EagerDecodeBuffers", "DecodeBuffers", "seq_scratch"),
    # fixtures/EXPECTED.md, table R: allocations through project functions, tuple targets, removals
    ("DI002", "TokenMLABackend", "CounterMLABackend", "kv_counter"),
    ("DI002", "TokenMLABackend", "CounterMLABackend", "decode_scratch"),
    ("DI001", "ShortStackModel", "StackModel", "layers"),
    ("DI001", "ShortStackModel", "StackModel", "norm"),
    ("DI001", "ShortStackModel", "StackModel", "lm_head"),
    ("DI001", "ShortStackModel", "StackModel", "tied_head"),
    ("DI001", "EncoderOnlyModel", "StackModel", "audio"),
    ("DI002", "WideHeadModel", "StackModel", "audio"),
    ("DI002", "WideHeadModel", "StackModel", "head"),
    ("DI001", "NoMropeBuffers", "GraphBuffers", "mrope_positions"),
    ("DI001", "NoLocBuffers", "GraphBuffers", "out_cache_loc"),
    ("DI001", "SeqOnlyBuffers", "GraphBuffers", "positions"),
    ("DI001", "SeqOnlyBuffers", "GraphBuffers", "mrope_positions"),
    ("DI001", "FusedDecoderBlock", "SelfAttention", "self_attn.qkv_proj"),
    ("DI002", "RaggedBackend", "PagedBackend", "kv_last_page_len"),
    # fixtures/EXPECTED.md, table F: receivers typed by flow
    ("DI002", "MultiStepBackend", "PagedStepBackend", "kv_last_page_len"),
    ("DI002", "MultiStepBackend", "PagedStepBackend", "qo_indptr"),
    ("DI002", "MultiStepBackend", "PagedStepBackend", "page_table"),
    ("DI002", "MultiStepBackend", "PagedStepBackend", "cu_seqlens"),
    ("DI002", "MultiStepBackend", "PagedStepBackend", "kv_indices"),
    ("DI002", "MultiStepBackend", "PagedStepBackend", "req_offsets"),
    # fixtures/EXPECTED.md, table R: values only handed to constructed objects that never use them
    ("DI002", "FusedSteps", "StepBuffers", "index_ptr"),
    ("DI002", "ShortRelaySteps", "StepBuffers", "index_ptr"),
    ("DI002", "UpdatedSteps", "StepBuffers", "index_ptr"),  # R64: into an updater stored in a dead attribute
    ("DI002", "FusedKernel", "PagedKernel", "index_ptr"),
    ("DI002", "RowSteps", "RowBuffers", "index_ptr"),  # table R, R56-R57: read only to compute a dead attribute
    ("DI002", "SpanSteps", "RowBuffers", "index_ptr"),
    ("DI001", "NoNormBlock", "NormBlock", "ln1"),  # table R, R23-R25: registered names removed
    ("DI001", "NoProjBlock", "NormBlock", "proj"),
    ("DI001", "NoOutBlock", "NormBlock", "out"),
    ("DI001", "NoFirstNormStack", "NormStack", "norm0"),  # table R, R58-R59: names a literal range registers
    ("DI001", "OwnGateStack", "NormStack", "gate1"),
    ("DI001", "ShallowStack", "DepthStack", "layer1"),  # table R, R60-R63: names a range the chain decides registers
    ("DI001", "ShallowStack", "DepthStack", "norm1"),
    ("DI001", "OneStageStack", "DepthStack", "stage1"),
    ("DI001", "OneStageStack", "DepthStack", "layer2"),
    ("DI001", "NoRopeTables", "RopeTables", "cos_sin"),  # table R, R26-R27: tensors joined from allocations
    ("DI001", "NoRopeTables", "RopeTables", "offsets"),
    ("DI001", "DeformableDecoder", "QueryDecoder", "decoder"),  # table R, R28-R32: built in a helper __init__ calls
    ("DI001", "DeformableDecoder", "QueryDecoder", "query_embedding"),
    ("DI001", "TwoStageDecoder", "QueryDecoder", "reg_branch"),
    ("DI002", "ScoreOnlyDecoder", "QueryDecoder", "reg_branch"),
    ("DI001", "WideOwnLayersDecoder", "OwnLayersDecoder", "reg_branch"),
    ("DI001", "MaybeDecoder", "QueryDecoder", "reg_branch"),  # table R, R33-R36: replaced only under a condition
    ("DI001", "ProjectedBlock", "ResidualBlock", "shortcut"),
    ("DI001", "DefaultProjectedBlock", "ResidualBlock", "shortcut"),
    ("DI001", "MaybeNoMropeBuffers", "GraphBuffers", "mrope_positions"),
    ("DI001", "MaybeResized", "StagingParent", "staging"),  # negative 10, not quiet since issue 36
    ("DI001", "SkipInitBlock", "InitBlock", "gate"),  # table R, R37-R42: explicit arguments beside spreads
    *(("DI001", "NormalInitBlock", "InitBlock", a) for a in ("norm", "table", "warm")),
    ("DI001", "PositionalSkipBlock", "InitBlock", "gate"),
    ("DI001", "ForwardedBlock", "InitBlock", "norm"),
    # table R, R43-R48: a factory whose returns differ by branch, copies and joins of allocations
    *(("DI001", "PlainStem", "BlurStem", a) for a in ("blur", "cache", "table", "steps", "moved")),
    ("DI001", "NoRopeTables", "RopeTables", "joined"),
    # table R, R49-R55: built three times down the chain: the intermediate's rebuild is dead too
    *(("DI001", "PackedStack", "FusedStack", a) for a in ("kernels", "lookup")),
    *(("DI001", "FusedStack", "KernelStack", a) for a in ("kernels", "lookup")),
    ("DI001", "PackedMaybeStack", "KernelStack", "kernels"),
    ("DI001", "PackedMaybeStack", "MaybeFusedStack", "kernels"),
    ("DI001", "UnfusedPackedStack", "KernelStack", "kernels"),
    ("DI001", "FusedPairStack", "PairStack", "kernels"),  # R65: a comprehension of two, each replaced
    ("DI001", "SkipInitTable", "InitTable", "table"),  # table C, C13-C14: explicit keywords beside spreads
    ("DI002", "SpreadTable", "InitTable", "init_table"),
    # fixtures/EXPECTED.md, table K: modules built through class-typed fields, specs and builders
    *(("DI001", "ProjAttention", "SpecAttention", a) for a in ("proj", "mixer")),
    ("DI001", "PlainConfiguredAttention", "ConfiguredAttention", "proj"),
    ("DI001", "LinearClassAttrBlock", "ClassAttrBlock", "proj"),
    *(("DI001", "LeanDefaultedAttention", "DefaultedAttention", a) for a in ("proj", "mixer")),
    # fixtures/EXPECTED.md, table L: with the layer library not installed, the heavy-class pattern's fallback
    ("DI001", "WideBottleneck", "Bottleneck", "tiles"),
}
