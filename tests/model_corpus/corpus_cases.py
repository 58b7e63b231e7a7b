"""The real-model corpus: model definitions of pinned third-party packages (installed at test time into a
cache outside the repository, never copied into it) and the small configurations the harness builds.

A case names the files of the installed packages its model needs (copied into a temporary project, then
fixed by ``msmigrate fix``), the module holding the constructor, the constructor expression (evaluated in
that module's namespace, in torch and in MindSpore alike), its inputs (made by NumPy from a seed of the
case id) and the call (``model(x0)``). A package's support code that is not the model (weights download,
image presets, usage logging) is replaced by a *stand-in*: a few torch-free lines the harness writes
(``STAND_INS``), so the project holds the model and what it computes with, nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

# Model packages (their files are copied into the projects) and runtime dependencies (importable by both
# runs as installed). Installed with ``pip install --no-deps``: they must not pull another torch.
MODEL_PACKAGES: tuple[tuple[str, str], ...] = (
    ("torchvision", "0.28.0"),  # its compiled ops do not load with the CPU torch: model code only
    ("vit-pytorch", "1.26.11"),
    ("segment-anything", "1.0"),
    ("openai-whisper", "20250625"),
    ("efficientnet-pytorch", "0.7.1"),
    ("pretrainedmodels", "0.7.4"),
    ("open-clip-torch", "3.3.0"),
    ("pytorchcv", "0.0.74"),  # held out of the tuning (docs/heldout-evaluation.md): model code only
    ("conformer", "0.3.2"),
    ("g-mlp-pytorch", "0.1.5"),  # held out too (docs/heldout-evaluation.md, second round)
    ("linformer", "0.2.3"),
)
DEPENDENCIES: tuple[tuple[str, str], ...] = (("einops", "0.8.2"),)

# The distribution each copied top-level folder comes from (the table's "package" column).
DISTRIBUTION = {
    "torchvision": "torchvision", "vit_pytorch": "vit-pytorch", "segment_anything": "segment-anything",
    "whisper": "openai-whisper", "efficientnet_pytorch": "efficientnet-pytorch",
    "pretrainedmodels": "pretrainedmodels", "open_clip": "open-clip-torch", "pytorchcv": "pytorchcv",
    "conformer": "conformer", "g_mlp_pytorch": "g-mlp-pytorch", "linformer": "linformer",
}


@dataclass(frozen=True, slots=True)
class Input:
    """One input array: shape, dtype, value range (integers: ``low`` ≤ v < ``high``)."""

    shape: tuple[int, ...]
    dtype: str = "float32"
    low: float = -1.0
    high: float = 1.0


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    files: tuple[str, ...]  # paths inside the installed packages (``__init__.py`` files: empty unless listed)
    module: str  # the module whose namespace the constructor expression is evaluated in
    expr: str
    inputs: tuple[Input, ...]
    call: str = "model(x0)"  # inputs are x0, x1, …; the model is ``model``
    loss: tuple[str, str] | None = None  # (module, expression of the output ``out``): one training step
    ci: bool = False  # in the test suite's sample (the benchmark runs every case)

    @property
    def package(self) -> str:
        return DISTRIBUTION[self.module.split(".")[0]]


_EMPTY = ""
_TV_UTILS = '''"""Stand-in of the msmigrate corpus harness: torchvision's usage logging and a helper."""
import collections.abc
import itertools


def _log_api_usage_once(obj):
    return None


def _make_ntuple(x, n):
    if isinstance(x, collections.abc.Iterable):
        return tuple(x)
    return tuple(itertools.repeat(x, n))
'''
_TV_PRESETS = '''"""Stand-in of the msmigrate corpus harness: image presets are preprocessing."""


class _Preset:
    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs


ImageClassification = ObjectDetection = VideoClassification = SemanticSegmentation = OpticalFlow = _Preset


class InterpolationMode:
    NEAREST = "nearest"
    BILINEAR = "bilinear"
    BICUBIC = "bicubic"
'''
_TV_DOWNLOAD = '''"""Stand-in written by the msmigrate corpus harness: the corpus downloads no weights."""


def load_state_dict_from_url(*args, **kwargs):
    raise RuntimeError("the model corpus downloads no weights")
'''
_TV_OPS = '''"""Stand-in written by the msmigrate corpus harness: the pure-Python layers only."""
from .misc import Conv2dNormActivation, Conv3dNormActivation, FrozenBatchNorm2d
from .misc import MLP, Permute, SqueezeExcitation
from .stochastic_depth import StochasticDepth, stochastic_depth
'''
_WHISPER_DECODING = '''"""Stand-in of the msmigrate corpus harness: decoding needs a tokenizer."""


def decode(*args, **kwargs):
    raise NotImplementedError("decoding is not part of the model corpus")


detect_language = decode
'''
_WHISPER_TRANSCRIBE = '''"""Stand-in of the msmigrate corpus harness: transcription needs audio tools."""


def transcribe(*args, **kwargs):
    raise NotImplementedError("transcription is not part of the model corpus")
'''

_LINFORMER_REVERSIBLE = '''"""Stand-in of the msmigrate corpus harness: reversible execution (a
torch.autograd.Function with its own backward, rng-state capture) is training machinery, not part of the
model corpus."""


class _NotInCorpus:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("reversible execution is not part of the model corpus")


ReversibleSequence = SequentialSequence = _NotInCorpus
'''

# path in the project → text, written for every project that holds files of that top-level folder
STAND_INS: dict[str, dict[str, str]] = {
    "torchvision": {
        "torchvision/utils.py": _TV_UTILS,
        "torchvision/transforms/__init__.py": _EMPTY,
        "torchvision/transforms/_presets.py": _TV_PRESETS,
        "torchvision/_internally_replaced_utils.py": _TV_DOWNLOAD,
        "torchvision/ops/__init__.py": _TV_OPS,
    },
    "whisper": {"whisper/decoding.py": _WHISPER_DECODING, "whisper/transcribe.py": _WHISPER_TRANSCRIBE},
    "linformer": {"linformer/reversible.py": _LINFORMER_REVERSIBLE},
}

_TV = ("torchvision/_utils.py", "torchvision/models/_api.py", "torchvision/models/_utils.py",
       "torchvision/models/_meta.py")
_TV_OPS_FILES = ("torchvision/ops/misc.py", "torchvision/ops/stochastic_depth.py")
_IMAGE32 = (Input((2, 3, 32, 32)),)
_IMAGE64 = (Input((1, 3, 64, 64)),)
_IMAGE224 = (Input((1, 3, 224, 224)),)
_SAM = ("segment_anything/modeling/common.py",)
_CLIP = ("open_clip/transformer.py", "open_clip/utils.py", "open_clip/pos_embed.py", *_TV_OPS_FILES)
_CLIP_MODEL = (*_CLIP, "open_clip/model.py", "open_clip/modified_resnet.py", "open_clip/hf_model.py",
               "open_clip/hf_configs.py", "open_clip/timm_model.py", "open_clip/loss.py")
_PM = "pretrainedmodels/models/"
_EFFNET = tuple(f"efficientnet_pytorch/{name}.py" for name in ("__init__", "model", "utils"))
_WHISPER_DIMS = "ModelDimensions(8, 16, 32, 2, 2, 100, 12, 32, 2, 2)"
_PCV = tuple(f"pytorchcv/models/common/{name}.py" for name in ("activ", "conv", "norm", "att", "arch"))

CASES: tuple[Case, ...] = (
    # torchvision
    Case("tv_resnet_basic", (*_TV, "torchvision/models/resnet.py"), "torchvision.models.resnet",
         "ResNet(BasicBlock, [1, 1, 1, 1], num_classes=10)", _IMAGE32, ci=True),
    Case("tv_resnext_bottleneck", (*_TV, "torchvision/models/resnet.py"), "torchvision.models.resnet",
         "ResNet(Bottleneck, [1, 1, 1, 1], groups=4, width_per_group=8, num_classes=10)", _IMAGE32),
    Case("tv_mobilenet_v2", (*_TV, *_TV_OPS_FILES, "torchvision/models/mobilenetv2.py"),
         "torchvision.models.mobilenetv2", "MobileNetV2(num_classes=10, width_mult=0.25)", _IMAGE32),
    Case("tv_mobilenet_v3_small", (*_TV, *_TV_OPS_FILES, "torchvision/models/mobilenetv3.py"),
         "torchvision.models.mobilenetv3", "mobilenet_v3_small(num_classes=10)", _IMAGE32),
    Case("tv_squeezenet", (*_TV, "torchvision/models/squeezenet.py"), "torchvision.models.squeezenet",
         'SqueezeNet("1_1", num_classes=10)', _IMAGE64),
    Case("tv_shufflenet_v2", (*_TV, "torchvision/models/shufflenetv2.py"), "torchvision.models.shufflenetv2",
         "ShuffleNetV2([2, 2, 2], [24, 48, 96, 192, 256], num_classes=10)", _IMAGE32),
    Case("tv_densenet", (*_TV, "torchvision/models/densenet.py"), "torchvision.models.densenet",
         "DenseNet(growth_rate=8, block_config=(2, 2), num_init_features=16, bn_size=2, num_classes=10)",
         _IMAGE32),
    Case("tv_efficientnet_b0", (*_TV, *_TV_OPS_FILES, "torchvision/models/efficientnet.py"),
         "torchvision.models.efficientnet", "efficientnet_b0(num_classes=10)", _IMAGE32),
    Case("tv_vision_transformer", (*_TV, *_TV_OPS_FILES, "torchvision/models/vision_transformer.py"),
         "torchvision.models.vision_transformer",
         "VisionTransformer(image_size=32, patch_size=8, num_layers=2, num_heads=2, hidden_dim=32,"
         " mlp_dim=64, num_classes=10)", _IMAGE32),
    Case("tv_googlenet", (*_TV, "torchvision/models/googlenet.py"), "torchvision.models.googlenet",
         "GoogLeNet(num_classes=10, aux_logits=False, init_weights=True)", _IMAGE64),
    Case("tv_convnext", (*_TV, *_TV_OPS_FILES, "torchvision/models/convnext.py"),
         "torchvision.models.convnext",
         "ConvNeXt([CNBlockConfig(16, 32, 1), CNBlockConfig(32, None, 1)], num_classes=10)", _IMAGE32),
    Case("tv_swin", (*_TV, *_TV_OPS_FILES, "torchvision/models/swin_transformer.py"),
         "torchvision.models.swin_transformer",
         "SwinTransformer(patch_size=[2, 2], embed_dim=16, depths=[1, 1], num_heads=[1, 2],"
         " window_size=[2, 2], num_classes=10)", (Input((1, 3, 16, 16)),)),
    # vit-pytorch
    Case("vit_vit", ("vit_pytorch/vit.py",), "vit_pytorch.vit",
         "ViT(image_size=32, patch_size=8, num_classes=10, dim=32, depth=2, heads=2, mlp_dim=64,"
         " dim_head=16)", _IMAGE32),
    Case("vit_simple_vit", ("vit_pytorch/simple_vit.py",), "vit_pytorch.simple_vit",
         "SimpleViT(image_size=32, patch_size=8, num_classes=10, dim=32, depth=2, heads=2, mlp_dim=64,"
         " dim_head=16)", _IMAGE32, ci=True),
    Case("vit_cait", ("vit_pytorch/cait.py",), "vit_pytorch.cait",
         "CaiT(image_size=32, patch_size=8, num_classes=10, dim=32, depth=2, cls_depth=1, heads=2,"
         " mlp_dim=64, dim_head=16, layer_dropout=0.0)", _IMAGE32),
    Case("vit_deepvit", ("vit_pytorch/deepvit.py",), "vit_pytorch.deepvit",
         "DeepViT(image_size=32, patch_size=8, num_classes=10, dim=32, depth=2, heads=2, mlp_dim=64,"
         " dim_head=16)", _IMAGE32),
    Case("vit_cct", ("vit_pytorch/cct.py",), "vit_pytorch.cct",
         "CCT(img_size=32, embedding_dim=32, n_conv_layers=1, kernel_size=3, stride=2, padding=1,"
         " pooling_kernel_size=3, pooling_stride=2, pooling_padding=1, num_layers=2, num_heads=2,"
         " mlp_ratio=2.0, num_classes=10, positional_embedding='learnable')", _IMAGE32),
    Case("vit_mobile_vit", ("vit_pytorch/mobile_vit.py",), "vit_pytorch.mobile_vit",
         "MobileViT(image_size=(64, 64), dims=[16, 16, 16],"
         " channels=[8, 8, 8, 8, 16, 16, 16, 16, 16, 16, 32], num_classes=10)", _IMAGE64),
    # segment-anything
    Case("sam_image_encoder", (*_SAM, "segment_anything/modeling/image_encoder.py"),
         "segment_anything.modeling.image_encoder",
         "ImageEncoderViT(img_size=64, patch_size=16, embed_dim=32, depth=2, num_heads=2, out_chans=16,"
         " use_rel_pos=True, window_size=2, global_attn_indexes=(1,))", _IMAGE64),
    Case("sam_prompt_encoder", (*_SAM, "segment_anything/modeling/prompt_encoder.py"),
         "segment_anything.modeling.prompt_encoder",
         "PromptEncoder(embed_dim=16, image_embedding_size=(4, 4), input_image_size=(64, 64),"
         " mask_in_chans=4)",
         (Input((1, 2, 2), low=0, high=64), Input((1, 2), "int64", 0, 2), Input((1, 4), low=0, high=64),
          Input((1, 1, 16, 16))),
         call="model(points=(x0, x1), boxes=x2, masks=x3)"),
    Case("sam_two_way_transformer", (*_SAM, "segment_anything/modeling/transformer.py"),
         "segment_anything.modeling.transformer",
         "TwoWayTransformer(depth=2, embedding_dim=16, num_heads=2, mlp_dim=32)",
         (Input((1, 16, 4, 4)), Input((1, 16, 4, 4)), Input((1, 3, 16))), call="model(x0, x1, x2)", ci=True),
    Case("sam_mask_decoder",
         (*_SAM, "segment_anything/modeling/transformer.py", "segment_anything/modeling/mask_decoder.py",
          "segment_anything/modeling/image_encoder.py", "segment_anything/modeling/prompt_encoder.py",
          "segment_anything/modeling/sam.py", "segment_anything/modeling/__init__.py"),
         "segment_anything.modeling",
         "MaskDecoder(transformer_dim=16, transformer=TwoWayTransformer(depth=2, embedding_dim=16,"
         " mlp_dim=32, num_heads=2), num_multimask_outputs=3, iou_head_depth=2, iou_head_hidden_dim=16)",
         (Input((1, 16, 4, 4)), Input((1, 16, 4, 4)), Input((1, 3, 16)), Input((1, 16, 4, 4))),
         call="model(image_embeddings=x0, image_pe=x1, sparse_prompt_embeddings=x2,"
              " dense_prompt_embeddings=x3, multimask_output=True)"),
    # openai-whisper
    Case("whisper_audio_encoder", ("whisper/model.py",), "whisper.model",
         "AudioEncoder(n_mels=8, n_ctx=16, n_state=32, n_head=2, n_layer=2)", (Input((1, 8, 32)),), ci=True),
    Case("whisper_text_decoder", ("whisper/model.py",), "whisper.model",
         "TextDecoder(n_vocab=100, n_ctx=12, n_state=32, n_head=2, n_layer=2)",
         (Input((1, 6), "int64", 0, 100), Input((1, 16, 32))), call="model(x0, x1)"),
    Case("whisper_model", ("whisper/model.py",), "whisper.model", f"Whisper({_WHISPER_DIMS})",
         (Input((1, 8, 32)), Input((1, 6), "int64", 0, 100)), call="model(x0, x1)"),
    # efficientnet-pytorch
    Case("effnet_b0_static_padding", _EFFNET, "efficientnet_pytorch.model",
         "EfficientNet.from_name('efficientnet-b0', num_classes=10, image_size=64)", _IMAGE64),
    Case("effnet_b0_dynamic_padding", _EFFNET, "efficientnet_pytorch.model",
         "EfficientNet.from_name('efficientnet-b0', num_classes=10, image_size=None)", _IMAGE64),
    # pretrainedmodels
    Case("pm_fbresnet", (_PM + "fbresnet.py",), "pretrainedmodels.models.fbresnet",
         "FBResNet(BasicBlock, [1, 1, 1, 1], num_classes=10)", _IMAGE224, ci=True),
    Case("pm_senet", (_PM + "senet.py",), "pretrainedmodels.models.senet",
         "SENet(SEResNetBottleneck, [1, 1, 1, 1], groups=1, reduction=16, dropout_p=None, inplanes=64,"
         " input_3x3=False, downsample_kernel_size=1, downsample_padding=0, num_classes=10)", _IMAGE224),
    Case("pm_xception", (_PM + "xception.py",), "pretrainedmodels.models.xception",
         "xception(num_classes=10, pretrained=None)", _IMAGE64),
    Case("pm_dpn", (_PM + "dpn.py",), "pretrainedmodels.models.dpn",
         "DPN(small=True, num_init_features=16, k_r=32, groups=4, k_sec=(1, 1, 1, 1), inc_sec=(8, 8, 8, 8),"
         " num_classes=10, test_time_pool=False)", _IMAGE224),
    # open-clip-torch
    Case("clip_vision_transformer", _CLIP, "open_clip.transformer",
         "VisionTransformer(image_size=32, patch_size=8, width=32, layers=2, heads=2, mlp_ratio=2.0,"
         " output_dim=16)", _IMAGE32),
    Case("clip_text_transformer", _CLIP, "open_clip.transformer",
         "TextTransformer(context_length=8, vocab_size=50, width=32, heads=2, layers=2, output_dim=16)",
         (Input((2, 8), "int64", 0, 50),)),
    Case("clip_modified_resnet", (*_CLIP, "open_clip/modified_resnet.py"), "open_clip.modified_resnet",
         "ModifiedResNet(layers=[1, 1, 1, 1], output_dim=16, heads=2, image_size=64, width=16)",
         (Input((2, 3, 64, 64)),)),
    Case("clip_model", _CLIP_MODEL, "open_clip.model",
         "CLIP(embed_dim=16, vision_cfg=CLIPVisionCfg(layers=2, width=32, head_width=16, patch_size=8,"
         " image_size=32), text_cfg=CLIPTextCfg(context_length=8, vocab_size=50, width=32, heads=2,"
         " layers=2))",
         (Input((2, 3, 32, 32)), Input((2, 8), "int64", 0, 50)), call="model(x0, x1)",
         loss=("open_clip.loss", "ClipLoss()(*out)"), ci=True),
    # pytorchcv (held out: docs/heldout-evaluation.md); a final 7×7 pooling: 224×224 inputs
    Case("pcv_resnet10", (*_PCV, "pytorchcv/models/resnet.py"), "pytorchcv.models.resnet",
         "resnet10(num_classes=10)", _IMAGE224),
    Case("pcv_mixnet_s", (*_PCV, "pytorchcv/models/mixnet.py"), "pytorchcv.models.mixnet",
         "mixnet_s(num_classes=10)", _IMAGE224),
    Case("pcv_dla34", (*_PCV, "pytorchcv/models/resnet.py", "pytorchcv/models/resnext.py",
                       "pytorchcv/models/dla.py"),
         "pytorchcv.models.dla", "dla34(num_classes=10)", _IMAGE224),
    # conformer (held out)
    Case("conformer_block", ("conformer/conformer.py",), "conformer.conformer",
         "ConformerBlock(dim=32, dim_head=16, heads=2, conv_kernel_size=7)", (Input((2, 16, 32)),)),
    # g-mlp-pytorch and linformer (held out, second round): a token shift by F.pad with a negative amount
    # (MSM536), a causal mask by masked_fill_, a Parameter initialised by an in-place uniform_ in a helper
    Case("gmlp_causal_lm", ("g_mlp_pytorch/g_mlp_pytorch.py",), "g_mlp_pytorch.g_mlp_pytorch",
         "gMLP(num_tokens=50, dim=32, depth=2, seq_len=16, heads=2, ff_mult=2, attn_dim=16, causal=True,"
         " shift_tokens=1)", (Input((2, 16), "int64", 0, 50),)),
    Case("linformer_attention", ("linformer/linformer.py",), "linformer.linformer",
         "LinformerSelfAttention(dim=32, seq_len=16, k=8, heads=2)", (Input((2, 16, 32)),)),
)


def case_by_id(case_id: str) -> Case:
    for case in CASES:
        if case.id == case_id:
            return case
    raise KeyError(case_id)
