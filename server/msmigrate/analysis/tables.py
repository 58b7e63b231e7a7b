"""Facts about torch and other libraries the analyzer's inference uses, as data.

Which calls give tensors, modules and optimizers, which members return what, which internal modules
re-export public names, and which packages and builtins certainly produce no torch objects.
"""

from __future__ import annotations

TORCH_ROOTS: frozenset[str] = frozenset({"torch", "torchvision", "torchaudio", "torchtext"})

# Namespaces whose functions return tensors (unless listed in NON_TENSOR_FUNCTIONS).
TENSOR_FUNCTION_NAMESPACES: frozenset[str] = frozenset(
    {"torch", "torch.nn.functional", "torch.linalg", "torch.fft", "torch.special", "torch.nn.init",
     "torch.sparse", "torch.autograd"}
)

NON_TENSOR_FUNCTIONS: frozenset[str] = frozenset(
    {
        "torch.is_tensor", "torch.is_storage", "torch.is_floating_point", "torch.is_complex",
        "torch.is_nonzero", "torch.is_grad_enabled", "torch.is_inference_mode_enabled",
        "torch.numel", "torch.get_default_dtype", "torch.set_default_dtype", "torch.set_default_device",
        "torch.get_default_device", "torch.set_default_tensor_type", "torch.manual_seed", "torch.seed",
        "torch.initial_seed", "torch.get_rng_state", "torch.set_rng_state", "torch.set_printoptions",
        "torch.set_num_threads", "torch.get_num_threads", "torch.set_num_interop_threads",
        "torch.get_num_interop_threads", "torch.set_grad_enabled", "torch.use_deterministic_algorithms",
        "torch.are_deterministic_algorithms_enabled", "torch.save", "torch.load", "torch.compile",
        "torch.set_float32_matmul_precision", "torch.get_float32_matmul_precision", "torch.typename",
        "torch.is_autocast_enabled", "torch.set_anomaly_enabled", "torch.broadcast_shapes",
        "torch.result_type", "torch.can_cast", "torch.promote_types", "torch.autograd.backward",
        "torch.autograd.set_detect_anomaly", "torch.autograd.set_grad_enabled",
        "torch.nn.functional.has_torch_function",
    }
)

# torch classes whose instances are tensors.
TENSOR_CLASSES: frozenset[str] = frozenset(
    {
        "torch.Tensor", "torch.FloatTensor", "torch.DoubleTensor", "torch.HalfTensor", "torch.BFloat16Tensor",
        "torch.LongTensor", "torch.IntTensor", "torch.ShortTensor", "torch.CharTensor", "torch.ByteTensor",
        "torch.BoolTensor", "torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.nn.Buffer",
        "torch.nn.UninitializedParameter", "torch.nn.UninitializedBuffer",
    }
)

# Namespaces whose capitalised classes are nn.Module subclasses.
MODULE_CLASS_NAMESPACES: frozenset[str] = frozenset(
    {"torch.nn", "torch.nn.parallel", "torch.nn.modules", "torchvision.models", "torchvision.ops"}
)
NON_MODULE_CLASSES: frozenset[str] = frozenset({"torch.nn.Container"})

# Real torch modules the public inventory does not list, with the public module re-exporting their names
# (``from torch.nn.modules.loss import _Loss``, ``from torch.utils.data.dataset import Dataset``).
INTERNAL_MODULES: dict[str, str | None] = {
    "torch.nn.modules": "torch.nn",
    "torch.nn.parameter": "torch.nn",
    "torch.optim.optimizer": "torch.optim",
    "torch.utils.data.dataset": "torch.utils.data",
    "torch.utils.data.dataloader": "torch.utils.data",
    "torch.utils.data.sampler": "torch.utils.data",
    "torch.utils.data.distributed": "torch.utils.data.distributed",
    "torch.cuda.amp.grad_scaler": "torch.cuda.amp",
    "torch.cuda.amp.autocast_mode": "torch.cuda.amp",
    "torch.amp.grad_scaler": "torch.amp",
    "torch.amp.autocast_mode": "torch.amp",
    "torch.autograd.grad_mode": "torch.autograd",
    "torch.autograd.function": "torch.autograd",
    "torch.nn.utils.rnn": "torch.nn.utils.rnn",
    "torch._C": None,
    "torch.testing": None,
    "torch.onnx": None,
    "torch.hub": None,
    "torch.multiprocessing": None,
    "torch.overrides": None,
    "torch.types": None,
    "torch.profiler": None,
    "torch.fx": None,
    "torch.ao": None,
    "torch.quantization": None,
    "torch.utils.tensorboard": None,
    "torch.utils.cpp_extension": None,
    "torch.utils.hooks": None,
}
INTERNAL_MODULE_PREFIXES: tuple[str, ...] = ("torch.nn.modules.", "torch._C.", "torch.ao.", "torch.fx.")

# Namespaces of functions that build nn.Module models.
MODEL_FACTORY_PREFIXES: tuple[str, ...] = ("torchvision.models.", "torch.hub.load")

# Tensor methods that do not return a tensor.
NON_TENSOR_METHODS: frozenset[str] = frozenset(
    {
        "item", "tolist", "numpy", "size", "dim", "ndimension", "nelement", "numel", "element_size",
        "stride", "storage", "untyped_storage", "storage_offset", "data_ptr", "get_device", "is_contiguous",
        "is_floating_point", "is_complex", "is_signed", "is_pinned", "is_shared", "is_set_to", "equal",
        "backward", "register_hook", "register_post_accumulate_grad_hook", "type", "__len__",
        "dim_order", "is_inference", "has_names", "is_coalesced",
    }
)

# Tensor attributes whose value is a tensor.
TENSOR_VALUED_ATTRIBUTES: frozenset[str] = frozenset({"T", "mT", "H", "mH", "real", "imag", "grad", "data"})

# Named tuples torch functions and Tensor methods of these names return (torch.return_types.<name>), with
# their fields in order. MindSpore's counterparts return plain tuples in the same order (checked on 2.10:
# Tensor.topk, ops.sort, ops.max/min/median(x, dim), ops.cummax/cummin, ops.aminmax).
RETURN_FIELDS: dict[str, tuple[str, ...]] = {
    **{name: ("values", "indices") for name in (
        "topk", "sort", "max", "min", "median", "nanmedian", "mode", "kthvalue", "cummax", "cummin")},
    "aminmax": ("min", "max"),
}

# Classes whose members the inventory lists under a base class or the public alias.
MEMBER_OWNERS: dict[str, str] = {
    "torch.cuda.amp.GradScaler": "torch.amp.GradScaler",
    "torch.GradScaler": "torch.amp.GradScaler",
    "torch.optim.lr_scheduler.ReduceLROnPlateau": "torch.optim.lr_scheduler.ReduceLROnPlateau",
}

# Members of other torch classes that return tensors.
TENSOR_RETURNING_MEMBERS: frozenset[str] = frozenset(
    {"torch.amp.GradScaler.scale", "torch.distributions.Distribution.sample",
     "torch.distributions.Distribution.rsample", "torch.distributions.Distribution.log_prob",
     "torch.distributions.Distribution.entropy"}
)

# Module members a mindspore.nn.Cell has under the same name and meaning though the inventory cannot list
# them (instance attributes set in ``__init__``): reading or setting them needs no change, so no finding.
SAME_CELL_ATTRIBUTES: frozenset[str] = frozenset({"training"})

# Module methods that return the module itself.
MODULE_RETURNING_METHODS: frozenset[str] = frozenset(
    {"to", "cuda", "cpu", "xpu", "ipu", "mtia", "train", "eval", "float", "double", "half", "bfloat16",
     "requires_grad_", "apply", "type", "to_empty", "share_memory"}
)

# Packages known not to produce torch objects: results of their calls are plain (non-tensor) values.
NON_TORCH_PACKAGES: frozenset[str] = frozenset(
    {
        "numpy", "np", "pandas", "scipy", "cv2", "PIL", "skimage", "sklearn", "matplotlib", "math", "cmath",
        "os", "sys", "re", "json", "yaml", "csv", "random", "time", "datetime", "collections", "itertools",
        "functools", "operator", "pathlib", "logging", "argparse", "shutil", "glob", "pickle", "copy",
        "string", "textwrap", "typing", "dataclasses", "enum", "io", "subprocess", "threading",
        "multiprocessing", "socket", "struct", "hashlib", "base64", "uuid", "tempfile", "warnings",
        "traceback", "inspect", "abc", "contextlib", "statistics", "decimal", "fractions", "heapq", "bisect",
        "array", "queue", "urllib", "http", "requests", "tqdm", "h5py", "imageio", "mindspore", "tensorflow",
        "builtins", "jax", "paddle", "mxnet", "onnx", "onnxruntime", "tokenizers", "sentencepiece", "nltk",
        "spacy",
    }
)

# Base classes from other packages whose subclasses are nn.Module subclasses.
FOREIGN_MODULE_BASES: frozenset[str] = frozenset(
    {"pytorch_lightning.LightningModule", "lightning.LightningModule", "lightning.pytorch.LightningModule",
     "pytorch_lightning.core.LightningModule", "transformers.PreTrainedModel"}
)

# Builtins whose result is certainly not a torch object.
NON_TORCH_BUILTINS: frozenset[str] = frozenset(
    {
        "list", "dict", "set", "frozenset", "tuple", "str", "bytes", "bytearray", "int", "float", "complex",
        "bool", "len", "range", "enumerate", "zip", "map", "filter", "sorted", "reversed", "repr", "format",
        "open", "print", "isinstance", "issubclass", "hasattr", "id", "hash", "hex", "oct", "bin", "chr",
        "ord", "round", "input", "type", "dir", "vars", "globals", "locals", "object", "super", "slice",
        "memoryview", "callable", "divmod", "pow", "ascii",
    }
)

# Functions of other packages that return a tensor when their first argument is one (einops rearranges the
# tensor it is given; MindSpore's einops backend of knowledge/compositions/adapters.py does the same).
TENSOR_PRESERVING: frozenset[str] = frozenset({"einops.rearrange", "einops.repeat", "einops.reduce"})
