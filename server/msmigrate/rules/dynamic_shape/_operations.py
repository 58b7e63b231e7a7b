"""Shared code of the dynamic-shape rules: the torch operations they know (data-dependent outputs, boolean
masks, axis arguments, gathers, growing concatenations)."""

# operations whose output length is decided by the data
DYNAMIC_FUNCTIONS = frozenset(
    {
        "torch.masked_select",
        "torch.nonzero",
        "torch.argwhere",
        "torch.unique",
        "torch.unique_consecutive",
        "torch.nonzero_static",
    }
)
DYNAMIC_METHODS = frozenset({"masked_select", "nonzero", "argwhere", "unique", "unique_consecutive"})
DYNAMIC_OUTPUT_FUNCTIONS = DYNAMIC_FUNCTIONS - {"torch.nonzero_static"}

# methods through which a data-dependent shape propagates (x.nonzero().squeeze(1) is still dynamic)
SHAPE_PRESERVING = frozenset(
    {
        "squeeze",
        "unsqueeze",
        "view",
        "reshape",
        "flatten",
        "long",
        "int",
        "float",
        "to",
        "contiguous",
        "clone",
        "detach",
        "t",
        "transpose",
        "permute",
        "cpu",
        "cuda",
        "type",
        "abs",
        "neg",
    }
)
BOOL_METHODS = frozenset(
    {
        "eq",
        "ne",
        "gt",
        "lt",
        "ge",
        "le",
        "isnan",
        "isinf",
        "isfinite",
        "bool",
        "logical_and",
        "logical_or",
        "logical_not",
        "logical_xor",
        "isin",
    }
)
BOOL_FUNCTIONS = frozenset(f"torch.{name}" for name in BOOL_METHODS - {"bool"})

# reductions and transposes: (function positions of axis arguments, method positions, keyword names)
AXIS_FUNCTIONS = {
    "sum": ((1,), ("dim", "axis")),
    "mean": ((1,), ("dim", "axis")),
    "amax": ((1,), ("dim",)),
    "amin": ((1,), ("dim",)),
    "max": ((1,), ("dim",)),
    "min": ((1,), ("dim",)),
    "prod": ((1,), ("dim",)),
    "std": ((1,), ("dim",)),
    "var": ((1,), ("dim",)),
    "logsumexp": ((1,), ("dim",)),
    "argmax": ((1,), ("dim",)),
    "argmin": ((1,), ("dim",)),
    "all": ((1,), ("dim",)),
    "any": ((1,), ("dim",)),
    "norm": ((2,), ("dim",)),
    "cumsum": ((1,), ("dim",)),
    "softmax": ((1,), ("dim",)),
    "transpose": ((1, 2), ("dim0", "dim1")),
    "swapaxes": ((1, 2), ("axis0", "axis1")),
    "movedim": ((1, 2), ("source", "destination")),
    "permute": ((1,), ("dims",)),
    "squeeze": ((1,), ("dim",)),
}
GATHERS = {  # name: (function position of the index, method position, keyword)
    "gather": (2, 1, "index"),
    "index_select": (2, 1, "index"),
    "take": (1, 0, "index"),
    "take_along_dim": (1, 0, "indices"),
}
GROWING = frozenset(
    {"torch.cat", "torch.concat", "torch.concatenate", "torch.stack", "torch.hstack", "torch.vstack"}
)


# the operation names (``torch.<name>`` or a tensor's ``.<name>``) a call must have to matter here
CALL_NAMES = frozenset(
    {"where", "topk", *DYNAMIC_METHODS, *(name.split(".", 1)[1] for name in DYNAMIC_FUNCTIONS), *GATHERS,
     *AXIS_FUNCTIONS}
)
