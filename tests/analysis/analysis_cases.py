"""The analyzer's case table: snippets and the exact findings expected with the MindSpore 2.4 table.

Each case is ``(id, code, [(line, column, torch_api, category), ...])`` (1-based line and column).
Categories: CON consistent, DIF differences, MIS missing, POS possible_tensor_api, DAT data_processing,
UNK unknown_torch_name. Every expectation was checked by hand against the code (shadowing, flow,
receivers); the categories come from the 2.4 mapping table and the torch inventory.
"""

CON, DIF, MIS = "consistent", "differences", "missing"
POS, DAT, UNK = "possible_tensor_api", "data_processing", "unknown_torch_name"

CASES: list[tuple[str, str, list[tuple[int, int, str, str]]]] = [
    (
        "import_plain",
        "import torch\ntorch.abs(x)\n",
        [(2, 1, "torch.abs", CON)],
    ),
    (
        "import_alias",
        "import torch as th\nth.abs(x)\n",
        [(2, 1, "torch.abs", CON)],
    ),
    (
        "import_submodule_binds_root",
        "import torch.nn\ntorch.nn.ReLU()\n",
        [(2, 1, "torch.nn.ReLU", DIF)],
    ),
    (
        "import_submodule_alias",
        "import torch.nn as nn\nnn.Linear(3, 4)\n",
        [(2, 1, "torch.nn.Linear", DIF)],
    ),
    (
        "import_functional_alias",
        "import torch.nn.functional as F\nF.relu(x)\n",
        [(2, 1, "torch.nn.functional.relu", CON)],
    ),
    (
        "from_import_module",
        "from torch import nn\nnn.Conv2d(1, 1, 3)\n",
        [(2, 1, "torch.nn.Conv2d", DIF)],
    ),
    (
        "from_import_module_alias",
        "from torch.nn import functional as F\nF.softmax(x, dim=1)\n",
        [(2, 1, "torch.nn.functional.softmax", DIF)],
    ),
    (
        "from_import_function",
        "from torch import zeros\nzeros(3)\n",
        [(2, 1, "torch.zeros", DIF)],
    ),
    (
        "from_import_function_alias",
        "from torch import zeros as z\nz(3)\n",
        [(2, 1, "torch.zeros", DIF)],
    ),
    (
        "from_import_class",
        "from torch.nn import Linear\nLinear(3, 4)\n",
        [(2, 1, "torch.nn.Linear", DIF)],
    ),
    (
        "star_import_nn",
        "from torch.nn import *\nConv2d(3, 8, 3)\nReLU()\n",
        [(2, 1, "torch.nn.Conv2d", DIF), (3, 1, "torch.nn.ReLU", DIF)],
    ),
    (
        "star_import_torch",
        "from torch import *\nzeros(2)\n",
        [(2, 1, "torch.zeros", DIF)],
    ),
    (
        "star_import_private_not_bound",
        "from torch.nn import *\n_reduction(1)\n",
        [],
    ),
    (
        "import_inside_function",
        "def f(x):\n    import torch\n    return torch.abs(x)\n",
        [(3, 12, "torch.abs", CON)],
    ),
    (
        "import_inside_function_not_global",
        "def f():\n    import torch\ntorch.abs(1)\n",
        [],
    ),
    (
        "from_import_inside_function",
        "def f(x):\n    from torch.nn import functional as F\n    return F.relu(x)\n",
        [(3, 12, "torch.nn.functional.relu", CON)],
    ),
    (
        "relative_import_not_torch",
        "from .torch import abs\nabs(1)\n",
        [],
    ),
    (
        "import_numpy_as_torch",
        "import numpy as torch\ntorch.abs(1)\n",
        [],
    ),
    (
        "import_unrelated_module",
        "import torchmetrics\ntorchmetrics.Accuracy()\n",
        [],
    ),
    (
        "no_import_no_finding",
        "torch.abs(1)\n",
        [],
    ),
    (
        "import_only",
        "import torch\nimport torch.nn as nn\nfrom torch.nn import Linear\n",
        [],
    ),
    (
        "dotted_longest_name",
        "import torch\ntorch.nn.functional.relu(x)\n",
        [(2, 1, "torch.nn.functional.relu", CON)],
    ),
    (
        "module_reference_not_finding",
        "import torch\nimport torch.nn as nn\nm = torch\nn = nn\ngetattr(torch.nn, 'ReLU')\n",
        [],
    ),
    (
        "multiple_calls_one_line",
        "import torch\ny = torch.cat([torch.ones(2), torch.zeros(2)])\n",
        [(2, 5, "torch.cat", DIF), (2, 16, "torch.ones", DIF), (2, 31, "torch.zeros", DIF)],
    ),
    (
        "nested_call_args",
        "import torch\ntorch.matmul(torch.randn(2, 2), torch.randn(2, 2))\n",
        [(2, 1, "torch.matmul", CON), (2, 14, "torch.randn", CON), (2, 33, "torch.randn", CON)],
    ),
    (
        "dtype_attribute",
        "import torch\nx = torch.zeros(2, dtype=torch.float32)\n",
        [(2, 5, "torch.zeros", DIF), (2, 26, "torch.float32", MIS)],
    ),
    (
        "annotation_param",
        "import torch\ndef f(a: torch.Tensor):\n    pass\n",
        [(2, 10, "torch.Tensor", MIS)],
    ),
    (
        "annotation_return",
        "import torch\ndef f() -> torch.Tensor:\n    pass\n",
        [(2, 12, "torch.Tensor", MIS)],
    ),
    (
        "annotation_variable",
        "import torch\nx: torch.Tensor = None\n",
        [(2, 4, "torch.Tensor", MIS)],
    ),
    (
        "isinstance_check",
        "import torch\nif isinstance(x, torch.Tensor):\n    pass\n",
        [(2, 18, "torch.Tensor", MIS)],
    ),
    (
        "attribute_of_function",
        "import torch\ntorch.float32.itemsize\n",
        [(2, 1, "torch.float32", MIS)],
    ),
    (
        "device_class",
        "import torch\nd = torch.device('cpu')\n",
        [(2, 5, "torch.device", MIS)],
    ),
    (
        "base_class",
        "import torch.nn as nn\nclass Net(nn.Module):\n    pass\n",
        [(2, 11, "torch.nn.Module", MIS)],
    ),
    (
        "base_class_from_import",
        "from torch.nn import Module\nclass Net(Module):\n    pass\n",
        [(2, 11, "torch.nn.Module", MIS)],
    ),
    (
        "base_class_dataset",
        "from torch.utils.data import Dataset\nclass D(Dataset):\n    pass\n",
        [(2, 9, "torch.utils.data.Dataset", DAT)],
    ),
    (
        "decorator_call",
        "import torch\n@torch.no_grad()\ndef f():\n    pass\n",
        [(2, 2, "torch.no_grad", MIS)],
    ),
    (
        "decorator_plain",
        "import torch\n@torch.jit.script\ndef f(x):\n    return x\n",
        [(2, 2, "torch.jit.script", MIS)],
    ),
    (
        "decorator_on_method",
        "import torch\nclass A:\n    @torch.no_grad()\n    def m(self):\n        pass\n",
        [(3, 6, "torch.no_grad", MIS)],
    ),
    (
        "with_no_grad",
        "import torch\nwith torch.no_grad():\n    pass\n",
        [(2, 6, "torch.no_grad", MIS)],
    ),
    (
        "with_autocast",
        "import torch\nwith torch.autocast('cuda'):\n    pass\n",
        [(2, 6, "torch.autocast", MIS)],
    ),
    (
        "with_multiple_items",
        "import torch\nwith torch.no_grad(), open('f') as fh:\n    fh.read()\n",
        [(2, 6, "torch.no_grad", MIS)],
    ),
    (
        "unknown_typo",
        "import torch\ntorch.zeross(3)\n",
        [(2, 1, "torch.zeross", UNK)],
    ),
    (
        "unknown_in_namespace",
        "import torch.nn as nn\nnn.Linearr(3, 4)\n",
        [(2, 1, "torch.nn.Linearr", UNK)],
    ),
    (
        "unknown_then_attribute",
        "import torch\ntorch.foo.bar.baz()\n",
        [(2, 1, "torch.foo", UNK)],
    ),
    (
        "unknown_from_import",
        "from torch import zeross\nzeross(2)\n",
        [(2, 1, "torch.zeross", UNK)],
    ),
    (
        "missing_api",
        "import torch\ntorch.save(m, 'p')\n",
        [(2, 1, "torch.save", MIS)],
    ),
    (
        "data_processing_loader",
        "from torch.utils.data import DataLoader\nDataLoader(ds, batch_size=2)\n",
        [(2, 1, "torch.utils.data.DataLoader", DAT)],
    ),
    (
        "data_processing_dataset_attr",
        "import torch\ntorch.utils.data.Dataset\n",
        [(2, 1, "torch.utils.data.Dataset", DAT)],
    ),
    (
        "torchvision_uncovered",
        "import torchvision\ntorchvision.models.resnet50()\n",
        [(2, 1, "torchvision.models.resnet50", UNK)],
    ),
    (
        "torchvision_transforms_data",
        "from torchvision import transforms\ntransforms.ToTensor()\n",
        [(2, 1, "torchvision.transforms.ToTensor", DAT)],
    ),
    (
        "shadow_local_assign",
        "import torch\ntorch = None\ntorch.abs(1)\n",
        [],
    ),
    (
        "shadow_after_use",
        "import torch\ntorch.abs(1)\ntorch = object()\ntorch.abs(2)\n",
        [(2, 1, "torch.abs", CON)],
    ),
    (
        "shadow_parameter",
        "import torch\ndef f(torch):\n    return torch.abs(1)\n",
        [],
    ),
    (
        "shadow_in_function_only",
        "import torch\ndef f():\n    torch = 3\n    return torch.abs(1)\ntorch.abs(2)\n",
        [(5, 1, "torch.abs", CON)],
    ),
    (
        "shadow_for_target",
        "import torch\nfor torch in range(3):\n    torch.abs(1)\n",
        [],
    ),
    (
        "shadow_with_target",
        "import torch\nwith open('f') as torch:\n    torch.abs(1)\n",
        [],
    ),
    (
        "shadow_comprehension_var",
        "import torch\n[torch.abs(1) for torch in items]\ntorch.abs(2)\n",
        [(3, 1, "torch.abs", CON)],
    ),
    (
        "shadow_lambda_param",
        "import torch\nf = lambda torch: torch.abs(1)\ng = lambda x: torch.abs(x)\n",
        [(3, 15, "torch.abs", CON)],
    ),
    (
        "shadow_except_name",
        "import torch\ntry:\n    pass\nexcept Exception as torch:\n    torch.abs(1)\n",
        [],
    ),
    (
        "shadow_def_name",
        "import torch\ndef torch():\n    pass\ntorch.abs(1)\n",
        [],
    ),
    (
        "shadow_class_name",
        "import torch\nclass torch:\n    pass\ntorch.abs(1)\n",
        [],
    ),
    (
        "shadow_import_other",
        "import torch\nimport numpy as torch\ntorch.abs(1)\n",
        [],
    ),
    (
        "rebind_back_to_torch",
        "import torch\ntorch = None\nimport torch\ntorch.abs(1)\n",
        [(4, 1, "torch.abs", CON)],
    ),
    (
        "del_name",
        "import torch\ndel torch\ntorch.abs(1)\n",
        [],
    ),
    (
        "alias_assignment",
        "import torch.nn as nn\nLinear = nn.Linear\nLinear(3, 4)\n",
        [(2, 10, "torch.nn.Linear", DIF), (3, 1, "torch.nn.Linear", DIF)],
    ),
    (
        "alias_assignment_chain",
        "import torch\nF = torch.nn.functional\nrelu = F.relu\nrelu(x)\n",
        [(3, 8, "torch.nn.functional.relu", CON), (4, 1, "torch.nn.functional.relu", CON)],
    ),
    (
        "alias_rebound",
        "import torch.nn as nn\nL = nn.Linear\nL = dict\nL(a=1)\n",
        [(2, 5, "torch.nn.Linear", DIF)],
    ),
    (
        "try_import_fallback",
        "try:\n    import torch\nexcept ImportError:\n    torch = None\ntorch.abs(1)\n",
        [(5, 1, "torch.abs", CON)],
    ),
    (
        "if_branch_rebinding",
        "import torch\nif flag:\n    torch = None\ntorch.abs(1)\n",
        [(4, 1, "torch.abs", CON)],
    ),
    (
        "global_declaration",
        "torch = None\n"
        "def load():\n"
        "    global torch\n"
        "    import torch\n"
        "def use():\n"
        "    return torch.abs(1)\n",
        [(6, 12, "torch.abs", CON)],
    ),
    (
        "class_scope_not_visible_in_method",
        "import numpy as np\nclass A:\n    import torch\n    def m(self):\n        return torch.abs(1)\n",
        [],
    ),
    (
        "class_scope_visible_in_body",
        "class A:\n    import torch\n    x = torch.zeros(1)\n",
        [(3, 9, "torch.zeros", DIF)],
    ),
    (
        "nonlocal_binding",
        "import torch\n"
        "def outer():\n"
        "    t = torch\n"
        "    def inner():\n"
        "        nonlocal t\n"
        "        t = 5\n"
        "    return t.abs(1)\n",
        [(7, 12, "torch.abs", CON)],
    ),
    (
        "function_sees_module_final_binding",
        "def f():\n    return torch.abs(1)\nimport torch\n",
        [(2, 12, "torch.abs", CON)],
    ),
    (
        "walrus_binding",
        "import torch\nif (t := torch.zeros(2)) is not None:\n    t.view(2)\n",
        [(2, 10, "torch.zeros", DIF), (3, 7, "torch.Tensor.view", CON)],
    ),
    (
        "comprehension_iter_in_outer_scope",
        "import torch\n[v.view(1) for v in torch.randn(3)]\n",
        [(2, 4, "torch.Tensor.view", CON), (2, 21, "torch.randn", CON)],
    ),
    (
        "nested_function_closure",
        "import torch.nn as nn\n"
        "def outer():\n"
        "    lin = nn.Linear(2, 2)\n"
        "    def inner(x):\n"
        "        return lin(x).view(-1)\n"
        "    return inner\n",
        [(3, 11, "torch.nn.Linear", DIF), (5, 23, "torch.Tensor.view", CON)],
    ),
    (
        "match_capture_shadow",
        "import torch\nmatch v:\n    case torch:\n        torch.abs(1)\n",
        [],
    ),
    (
        "string_mention",
        "import torch\ns = 'torch.abs(x)'\n",
        [],
    ),
    (
        "comment_mention",
        "import torch\n# torch.abs(x)\n",
        [],
    ),
    (
        "fstring_expression",
        "import torch\ns = f'{torch.abs(x)}'\n",
        [(2, 8, "torch.abs", CON)],
    ),
    (
        "docstring_mention",
        "import torch\ndef f():\n    '''Calls torch.abs(x).'''\n",
        [],
    ),
    (
        "tensor_method_from_torch_call",
        "import torch\nx = torch.zeros(2, 3)\nx.view(3, 2)\n",
        [(2, 5, "torch.zeros", DIF), (3, 3, "torch.Tensor.view", CON)],
    ),
    (
        "tensor_attribute_T",
        "import torch\nx = torch.ones(2, 2)\ny = x.T\n",
        [(2, 5, "torch.ones", DIF), (3, 7, "torch.Tensor.T", CON)],
    ),
    (
        "tensor_shape_attribute",
        "import torch\nx = torch.ones(2, 2)\nn = x.shape[0]\n",
        [(2, 5, "torch.ones", DIF), (3, 7, "torch.Tensor.shape", CON)],
    ),
    (
        "tensor_method_chain",
        "import torch\ntorch.randn(4).view(2, 2).permute(1, 0).contiguous()\n",
        [
            (2, 1, "torch.randn", CON),
            (2, 16, "torch.Tensor.view", CON),
            (2, 27, "torch.Tensor.permute", CON),
            (2, 41, "torch.Tensor.contiguous", CON),
        ],
    ),
    (
        "tensor_from_operator",
        "import torch\na = torch.ones(2)\nb = (a + 1) * 2\nb.sum()\n",
        [(2, 5, "torch.ones", DIF), (4, 3, "torch.Tensor.sum", DIF)],
    ),
    (
        "tensor_from_unary",
        "import torch\na = torch.ones(2)\n(-a).abs()\n",
        [(2, 5, "torch.ones", DIF), (3, 6, "torch.Tensor.abs", CON)],
    ),
    (
        "tensor_from_subscript",
        "import torch\na = torch.ones(2, 2)\na[0].unsqueeze(0)\n",
        [(2, 5, "torch.ones", DIF), (3, 6, "torch.Tensor.unsqueeze", CON)],
    ),
    (
        "tensor_method_result",
        "import torch\na = torch.ones(2)\nb = a.unsqueeze(0)\nb.squeeze(0)\n",
        [
            (2, 5, "torch.ones", DIF),
            (3, 7, "torch.Tensor.unsqueeze", CON),
            (4, 3, "torch.Tensor.squeeze", CON),
        ],
    ),
    (
        "tensor_item_not_tensor",
        "import torch\na = torch.ones(1)\nv = a.item()\nv.real\n",
        [(2, 5, "torch.ones", DIF), (3, 7, "torch.Tensor.item", DIF)],
    ),
    (
        "tensor_size_not_tensor",
        "import torch\na = torch.ones(1)\ns = a.size()\ns.numel()\n",
        [(2, 5, "torch.ones", DIF), (3, 7, "torch.Tensor.size", DIF)],
    ),
    (
        "tensor_tolist_not_tensor",
        "import torch\nl = torch.ones(3).tolist()\nl.append(1)\n",
        [(2, 5, "torch.ones", DIF), (2, 19, "torch.Tensor.tolist", MIS)],
    ),
    (
        "tensor_annotated_param",
        "import torch\ndef f(x: torch.Tensor):\n    return x.permute(1, 0)\n",
        [(2, 10, "torch.Tensor", MIS), (3, 14, "torch.Tensor.permute", CON)],
    ),
    (
        "tensor_optional_annotation",
        "import torch\nfrom typing import Optional\ndef f(x: Optional[torch.Tensor] = None):\n    return x\n",
        [(3, 19, "torch.Tensor", MIS)],
    ),
    (
        "tensor_annotated_return_function",
        "import torch\ndef make() -> torch.Tensor:\n    pass\nmake().view(1)\n",
        [(2, 15, "torch.Tensor", MIS), (4, 8, "torch.Tensor.view", CON)],
    ),
    (
        "tensor_tuple_unpack",
        "import torch\nvalues, idx = torch.max(torch.ones(2, 2), 1)\nidx.view(-1)\n",
        [(2, 15, "torch.max", DIF), (2, 25, "torch.ones", DIF), (3, 5, "torch.Tensor.view", CON)],
    ),
    (
        "tensor_tuple_literal_unpack",
        "import torch\nimport numpy as np\na, b = torch.ones(1), np.ones(1)\na.view(1)\nb.view(1)\n",
        [(3, 8, "torch.ones", DIF), (4, 3, "torch.Tensor.view", CON)],
    ),
    (
        "tensor_loop_element",
        "import torch\nfor row in torch.ones(2, 2):\n    row.view(2)\n",
        [(2, 12, "torch.ones", DIF), (3, 9, "torch.Tensor.view", CON)],
    ),
    (
        "tensor_augassign",
        "import torch\nacc = 0\nacc += torch.ones(1)\nacc.view(1)\n",
        [(3, 8, "torch.ones", DIF), (4, 5, "torch.Tensor.view", CON)],
    ),
    (
        "tensor_grad_attribute",
        "import torch\nw = torch.ones(1)\nw.grad.zero_()\n",
        [(2, 5, "torch.ones", DIF), (3, 3, "torch.Tensor.grad", MIS), (3, 8, "torch.Tensor.zero_", MIS)],
    ),
    (
        "tensor_backward",
        "import torch\nloss = torch.ones(1).sum()\nloss.backward()\n",
        [(2, 8, "torch.ones", DIF), (2, 22, "torch.Tensor.sum", DIF), (3, 6, "torch.Tensor.backward", MIS)],
    ),
    (
        "parameter_is_tensor",
        "import torch.nn as nn\np = nn.Parameter(torch_tensor)\np.data\n",
        # the table's row is spelled torch.nn.parameter.Parameter: the same class; p is a Parameter, and
        # mindspore.Parameter.data reads and writes the values (MindSpore 2.10: p.data = t sets them)
        [(2, 5, "torch.nn.Parameter", DIF), (3, 3, "torch.Tensor.data", CON)],
    ),
    (
        "tensor_compare_result",
        "import torch\na = torch.ones(2)\n(a > 0).float()\n",
        [(2, 5, "torch.ones", DIF), (3, 9, "torch.Tensor.float", CON)],
    ),
    (
        "tensor_ifexp",
        "import torch\na = torch.ones(2) if c else torch.zeros(2)\na.view(2)\n",
        [(2, 5, "torch.ones", DIF), (2, 29, "torch.zeros", DIF), (3, 3, "torch.Tensor.view", CON)],
    ),
    (
        "tensor_to_device",
        "import torch\nx = torch.ones(2).to('cpu')\nx.view(2)\n",
        [(2, 5, "torch.ones", DIF), (2, 19, "torch.Tensor.to", DIF), (3, 3, "torch.Tensor.view", CON)],
    ),
    (
        "tensor_numpy_result_not_tensor",
        "import torch\na = torch.ones(2).numpy()\na.reshape(2, 1)\n",
        [(2, 5, "torch.ones", DIF), (2, 19, "torch.Tensor.numpy", CON)],
    ),
    (
        "module_instance_methods",
        "import torch.nn as nn\nm = nn.Linear(2, 2)\nm.parameters()\nm.train()\nm.eval()\n",
        [
            (2, 5, "torch.nn.Linear", DIF),
            (3, 3, "torch.nn.Module.parameters", MIS),
            (4, 3, "torch.nn.Module.train", MIS),
            (5, 3, "torch.nn.Module.eval", MIS),
        ],
    ),
    (
        "module_call_returns_tensor",
        "import torch.nn as nn\nm = nn.Linear(2, 2)\ny = m(x)\ny.view(-1)\n",
        [(2, 5, "torch.nn.Linear", DIF), (4, 3, "torch.Tensor.view", CON)],
    ),
    (
        "module_to_returns_module",
        "import torch.nn as nn\nm = nn.Linear(2, 2).to(dev)\nm.state_dict()\n",
        [
            (2, 5, "torch.nn.Linear", DIF),
            (2, 21, "torch.nn.Module.to", MIS),
            (3, 3, "torch.nn.Module.state_dict", MIS),
        ],
    ),
    (
        "module_cuda_chain",
        "import torch.nn as nn\nnn.Linear(2, 2).cuda().eval()\n",
        [
            (2, 1, "torch.nn.Linear", DIF),
            (2, 17, "torch.nn.Module.cuda", MIS),
            (2, 24, "torch.nn.Module.eval", MIS),
        ],
    ),
    (
        "user_module_self_attr",
        "import torch.nn as nn\n"
        "class Net(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.fc = nn.Linear(4, 2)\n"
        "    def forward(self, x):\n"
        "        return self.fc(x).view(-1)\n",
        [(2, 11, "torch.nn.Module", MIS), (5, 19, "torch.nn.Linear", DIF), (7, 27, "torch.Tensor.view", CON)],
    ),
    (
        "user_module_forward_param",
        "import torch.nn as nn\n"
        "class Net(nn.Module):\n"
        "    def forward(self, x, mask=None):\n"
        "        return x.permute(0, 2, 1)\n",
        [(2, 11, "torch.nn.Module", MIS), (4, 18, "torch.Tensor.permute", CON)],
    ),
    (
        "user_module_methods_on_instance",
        "import torch.nn as nn\n"
        "class Net(nn.Module):\n"
        "    pass\n"
        "model = Net()\n"
        "model.load_state_dict(sd)\n"
        "model.zero_grad()\n",
        [
            (2, 11, "torch.nn.Module", MIS),
            (5, 7, "torch.nn.Module.load_state_dict", MIS),
            (6, 7, "torch.nn.Module.zero_grad", MIS),
        ],
    ),
    (
        "user_module_self_methods",
        "import torch.nn as nn\n"
        "class Net(nn.Module):\n"
        "    def reset(self):\n"
        "        for p in self.parameters():\n"
        "            p.data.zero_()\n",
        [
            (2, 11, "torch.nn.Module", MIS),
            (4, 23, "torch.nn.Module.parameters", MIS),
            (5, 15, "torch.Tensor.data", CON),  # p is a Parameter: mindspore.Parameter.data (MindSpore 2.10)
            (5, 20, "torch.Tensor.zero_", MIS),
        ],
    ),
    (
        "user_module_overrides_member",
        "import torch.nn as nn\n"
        "class Net(nn.Module):\n"
        "    def train(self, mode=True):\n"
        "        return self\n"
        "Net().train()\n",
        [(2, 11, "torch.nn.Module", MIS)],
    ),
    (
        "user_module_subclass_of_subclass",
        "import torch.nn as nn\n"
        "class Base(nn.Module):\n"
        "    pass\n"
        "class Net(Base):\n"
        "    def forward(self, x):\n"
        "        return x.view(1)\n",
        [(2, 12, "torch.nn.Module", MIS), (6, 18, "torch.Tensor.view", CON)],
    ),
    (
        "plain_class_self_attr_tensor",
        "import torch\n"
        "class Holder:\n"
        "    def __init__(self):\n"
        "        self.t = torch.zeros(2)\n"
        "    def get(self):\n"
        "        return self.t.view(2)\n",
        [(4, 18, "torch.zeros", DIF), (6, 23, "torch.Tensor.view", CON)],
    ),
    (
        "init_processed_first",
        "import torch.nn as nn\n"
        "class Net(nn.Module):\n"
        "    def forward(self, x):\n"
        "        return self.fc(x).view(-1)\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.fc = nn.Linear(2, 2)\n",
        [(2, 11, "torch.nn.Module", MIS), (4, 27, "torch.Tensor.view", CON), (7, 19, "torch.nn.Linear", DIF)],
    ),
    (
        "criterion_loss_backward",
        "import torch.nn as nn\n"
        "criterion = nn.CrossEntropyLoss()\n"
        "loss = criterion(out, y)\n"
        "loss.backward()\n",
        [(2, 13, "torch.nn.CrossEntropyLoss", DIF), (4, 6, "torch.Tensor.backward", MIS)],
    ),
    (
        "sequential_index_module",
        "import torch.nn as nn\nseq = nn.Sequential(nn.ReLU())\nseq[0].eval()\n",
        [
            (2, 7, "torch.nn.Sequential", DIF),
            (2, 21, "torch.nn.ReLU", DIF),
            (3, 8, "torch.nn.Module.eval", MIS),
        ],
    ),
    (
        "module_list_iteration",
        "import torch.nn as nn\n"
        "layers = nn.ModuleList([nn.ReLU()])\n"
        "for layer in layers:\n"
        "    layer.train()\n",
        [
            (2, 10, "torch.nn.ModuleList", DIF),
            (2, 25, "torch.nn.ReLU", DIF),
            (4, 11, "torch.nn.Module.train", MIS),
        ],
    ),
    (
        "module_annotated_param",
        "import torch.nn as nn\ndef fit(model: nn.Module):\n    model.train()\n",
        [(2, 16, "torch.nn.Module", MIS), (3, 11, "torch.nn.Module.train", MIS)],
    ),
    (
        "staticmethod_first_param_not_self",
        "import torch.nn as nn\n"
        "class Net(nn.Module):\n"
        "    @staticmethod\n"
        "    def helper(x):\n"
        "        return x.keys()\n",
        [(2, 11, "torch.nn.Module", MIS)],
    ),
    (
        "optimizer_methods",
        "import torch.optim as optim\nopt = optim.SGD(params, lr=0.1)\nopt.zero_grad()\nopt.step()\n",
        [
            (2, 7, "torch.optim.SGD", CON),
            (3, 5, "torch.optim.Optimizer.zero_grad", MIS),
            (4, 5, "torch.optim.Optimizer.step", MIS),
        ],
    ),
    (
        "optimizer_from_torch",
        "import torch\nopt = torch.optim.Adam(params)\nopt.state_dict()\n",
        [(2, 7, "torch.optim.Adam", CON), (3, 5, "torch.optim.Optimizer.state_dict", MIS)],
    ),
    (
        "scheduler_members",
        "import torch\nsched = torch.optim.lr_scheduler.StepLR(opt, 3)\nsched.step()\n",
        [
            (2, 9, "torch.optim.lr_scheduler.StepLR", DIF),
            # the file's StepLR becomes mindspore.experimental.optim.lr_scheduler.StepLR, which has step()
            (3, 7, "torch.optim.lr_scheduler.LRScheduler.step", CON),
        ],
    ),
    (
        "training_loop",
        "import torch\n"
        "import torch.nn as nn\n"
        "model = nn.Linear(4, 2)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "for x, y in loader:\n"
        "    opt.zero_grad()\n"
        "    loss = nn.functional.cross_entropy(model(x), y)\n"
        "    loss.backward()\n"
        "    opt.step()\n",
        [
            (3, 9, "torch.nn.Linear", DIF),
            (4, 7, "torch.optim.SGD", CON),
            (4, 29, "torch.nn.Module.parameters", MIS),
            (6, 9, "torch.optim.Optimizer.zero_grad", MIS),
            (7, 12, "torch.nn.functional.cross_entropy", CON),
            (8, 10, "torch.Tensor.backward", MIS),
            (9, 9, "torch.optim.Optimizer.step", MIS),
        ],
    ),
    (
        "possible_unknown_receiver",
        "import torch\ndef f(x):\n    return x.unsqueeze(0)\n",
        [(3, 14, "torch.Tensor.unsqueeze", POS)],
    ),
    (
        "possible_needs_torch_import",
        "def f(x):\n    return x.unsqueeze(0)\n",
        [],
    ),
    (
        "possible_excluded_list_append",
        "import torch\ndef f(items):\n    items.append(1)\n",
        [],
    ),
    (
        "possible_excluded_numpy_sum",
        "import torch\nimport numpy as np\na = np.zeros(3)\na.sum()\n",
        [],
    ),
    (
        "possible_excluded_unknown_sum",
        "import torch\ndef f(a):\n    return a.sum()\n",
        [],
    ),
    (
        "possible_excluded_dict_items",
        "import torch\ndef f(d):\n    return d.items()\n",
        [],
    ),
    (
        "possible_excluded_str_split",
        "import torch\ndef f(s):\n    return s.split(',')\n",
        [],
    ),
    (
        "possible_excluded_set_add",
        "import torch\ndef f(s):\n    s.add(1)\n",
        [],
    ),
    (
        "possible_excluded_copy",
        "import torch\ndef f(s):\n    return s.copy()\n",
        [],
    ),
    (
        "possible_signature_mismatch",
        "import torch\ndef f(p):\n    return p.unsqueeze(0, 1, 2)\n",
        [],
    ),
    (
        "possible_keyword_mismatch",
        "import torch\ndef f(p):\n    return p.permute(order=1)\n",
        [],
    ),
    (
        "possible_keyword_fits",
        "import torch\ndef f(p, m):\n    return p.masked_fill(mask=m, value=0)\n",
        [(3, 14, "torch.Tensor.masked_fill", POS)],
    ),
    (
        "possible_logger_log_mismatch",
        "import torch\ndef f(logger):\n    logger.log(10, 'x')\n",
        [],
    ),
    (
        "possible_not_a_tensor_method",
        "import torch\ndef f(x):\n    return x.frobnicate()\n",
        [],
    ),
    (
        "possible_attribute_not_call",
        "import torch\ndef f(x):\n    return x.unsqueeze\n",
        [],
    ),
    (
        "numpy_result_receiver",
        "import torch\nimport numpy as np\na = np.random.rand(3)\na.view(3)\n",
        [],
    ),
    (
        "list_literal_receiver",
        "import torch\n[1, 2].index(1)\n",
        [],
    ),
    (
        "string_literal_receiver",
        "import torch\n'a,b'.split(',')\n",
        [],
    ),
    (
        "builtin_result_receiver",
        "import torch\nlist(x).view(1)\n",
        [],
    ),
    (
        "possible_starred_args",
        "import torch\ndef f(x, shape):\n    return x.view(*shape)\n",
        [(3, 14, "torch.Tensor.view", POS)],
    ),
    (
        "possible_from_unknown_call",
        "import torch\nbatch = next(it)\nbatch.unsqueeze(0)\n",
        [(3, 7, "torch.Tensor.unsqueeze", POS)],
    ),
    (
        # modules have cuda/to/half/float/… too: a Tensor finding needs a receiver shown to be a tensor
        "shared_method_on_unknown_receiver",
        "import torch\nbatch = next(it)\nbatch.cuda()\nbatch.to(0)\nbatch.half()\n",
        [],
    ),
    (
        "possible_lambda_param",
        "import torch\nf = lambda t: t.unsqueeze(1)\n",
        [(2, 17, "torch.Tensor.unsqueeze", POS)],
    ),
    (
        "possible_dunder_excluded",
        "import torch\ndef f(x):\n    return x.__len__()\n",
        [],
    ),
    (
        "init_function",
        "import torch.nn as nn\nnn.init.kaiming_normal_(w, mode='fan_out')\n",
        [(2, 1, "torch.nn.init.kaiming_normal_", MIS)],
    ),
    (
        "distributed_init",
        "import torch.distributed as dist\ndist.init_process_group('nccl')\n",
        [(2, 1, "torch.distributed.init_process_group", DIF)],
    ),
    (
        "cuda_amp_grad_scaler",
        "import torch\nscaler = torch.cuda.amp.GradScaler()\n",
        [(2, 10, "torch.cuda.amp.GradScaler", MIS)],
    ),
    (
        "with_cuda_autocast",
        "import torch\nwith torch.cuda.amp.autocast():\n    pass\n",
        [(2, 6, "torch.cuda.amp.autocast", MIS)],
    ),
    (
        "multiline_call_range",
        "import torch\ny = torch.cat(\n    [a, b],\n    dim=0,\n)\n",
        [(2, 5, "torch.cat", DIF)],
    ),
    (
        "multiline_attribute_chain",
        "import torch\ny = (torch\n     .nn\n     .functional\n     .relu(x))\n",
        [(2, 6, "torch.nn.functional.relu", CON)],
    ),
    (
        "super_init_not_finding",
        "import torch.nn as nn\nclass N(nn.Module):\n    def __init__(self):\n        super().__init__()\n",
        [(2, 9, "torch.nn.Module", MIS)],
    ),
    (
        "unbound_tensor_method",
        "import torch\ntorch.Tensor.view(x, 2)\n",
        [(2, 1, "torch.Tensor.view", CON)],
    ),
    (
        "function_passed_as_argument",
        "import torch.nn.functional as F\nmodel.apply(F.relu)\n",
        [(2, 13, "torch.nn.functional.relu", CON)],
    ),
    (
        "nested_sequential",
        "import torch.nn as nn\nnet = nn.Sequential(nn.Linear(2, 2), nn.ReLU())\n",
        [(2, 7, "torch.nn.Sequential", DIF), (2, 21, "torch.nn.Linear", DIF), (2, 38, "torch.nn.ReLU", DIF)],
    ),
    (
        "torch_calls_in_containers",
        "import torch\nd = {'a': torch.ones(1), 'b': [torch.zeros(1)]}\n",
        [(2, 11, "torch.ones", DIF), (2, 32, "torch.zeros", DIF)],
    ),
    (
        "async_function",
        "import torch\nasync def f():\n    return torch.abs(await g())\n",
        [(3, 12, "torch.abs", CON)],
    ),
    (
        "dataclass_field_annotation",
        "import torch\nfrom dataclasses import dataclass\n@dataclass\nclass Batch:\n    x: torch.Tensor\n",
        [(5, 8, "torch.Tensor", MIS)],
    ),
    (
        "type_checking_import",
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    import torch\n"
        "def f(x: 'torch.Tensor'):\n"
        "    pass\n",
        [],
    ),
    (
        "keyword_argument_value",
        "import torch\nf(device=torch.device('cpu'), fn=torch.sigmoid)\n",
        [(2, 10, "torch.device", MIS), (2, 34, "torch.sigmoid", CON)],
    ),
    (
        "from_import_tensor_annotation",
        "from torch import Tensor\ndef f(x: Tensor):\n    return x.view(1)\n",
        [(2, 10, "torch.Tensor", MIS), (3, 14, "torch.Tensor.view", CON)],
    ),
    (
        "generator_expression",
        "import torch\nsum(torch.exp(v) for v in vals)\n",
        [(2, 5, "torch.exp", CON)],
    ),
    (
        "no_grad_decorator_without_call",
        "import torch\n@torch.no_grad\ndef f():\n    pass\n",
        [(2, 2, "torch.no_grad", MIS)],
    ),
    (
        "parameters_iteration",
        "import torch.nn as nn\n"
        "model = nn.Linear(2, 2)\n"
        "for p in model.parameters():\n"
        "    p.requires_grad_(False)\n",
        [
            (2, 9, "torch.nn.Linear", DIF),
            (3, 16, "torch.nn.Module.parameters", MIS),
            (4, 7, "torch.Tensor.requires_grad_", CON),  # p is a Parameter: mindspore.Parameter has it
        ],
    ),
    (
        "named_parameters_not_tensor",
        "import torch.nn as nn\n"
        "model = nn.Linear(2, 2)\n"
        "for name, p in model.named_parameters():\n"
        "    name.split('.')\n",
        [(2, 9, "torch.nn.Linear", DIF), (3, 22, "torch.nn.Module.named_parameters", MIS)],
    ),
    (
        "lambda_default_torch",
        "import torch\nf = lambda x, fn=torch.relu: fn(x)\n",
        [(2, 18, "torch.relu", MIS)],
    ),
    (
        "class_body_module_attr",
        "import torch.nn as nn\n"
        "class N(nn.Module):\n"
        "    act = nn.ReLU()\n"
        "    def forward(self, x):\n"
        "        return self.act(x).view(-1)\n",
        [(2, 9, "torch.nn.Module", MIS), (3, 11, "torch.nn.ReLU", DIF), (5, 28, "torch.Tensor.view", CON)],
    ),
    (
        "rebind_variable_to_list",
        "import torch\nx = torch.zeros(2)\nx = [1]\nx.view(1)\n",
        [(2, 5, "torch.zeros", DIF)],
    ),
    (
        "branch_merge_keeps_tensor",
        "import torch\nif c:\n    x = torch.zeros(1)\nelse:\n    x = 5\nx.view(1)\n",
        [(3, 9, "torch.zeros", DIF), (6, 3, "torch.Tensor.view", CON)],
    ),
    (
        "while_loop_binding",
        "import torch\nwhile c:\n    x = torch.ones(1)\n    x.view(1)\n",
        [(3, 9, "torch.ones", DIF), (4, 7, "torch.Tensor.view", CON)],
    ),
    (
        "try_finally_binding",
        "import torch\ntry:\n    x = torch.ones(1)\nfinally:\n    pass\nx.view(1)\n",
        [(3, 9, "torch.ones", DIF), (6, 3, "torch.Tensor.view", CON)],
    ),
    (
        "nested_class_in_function",
        "import torch.nn as nn\n"
        "def build():\n"
        "    class Block(nn.Module):\n"
        "        def forward(self, x):\n"
        "            return x.relu()\n"
        "    return Block()\n",
        [(3, 17, "torch.nn.Module", MIS), (5, 22, "torch.Tensor.relu", MIS)],
    ),
    (
        "attribute_assignment_not_binding_name",
        "import torch\nobj.torch = None\ntorch.abs(1)\n",
        [(3, 1, "torch.abs", CON)],
    ),
    (
        "subscript_of_torch_function_result",
        "import torch\ntorch.randn(3, 3)[0].view(3)\n",
        [(2, 1, "torch.randn", CON), (2, 22, "torch.Tensor.view", CON)],
    ),
    (
        "tensor_method_on_parenthesised",
        "import torch\n(torch.ones(2) + 1).view(2)\n",
        [(2, 2, "torch.ones", DIF), (2, 21, "torch.Tensor.view", CON)],
    ),
    (
        "torchvision_model_is_module",
        "import torchvision\nm = torchvision.models.resnet18()\nm.eval()\n",
        [(2, 5, "torchvision.models.resnet18", UNK), (3, 3, "torch.nn.Module.eval", MIS)],
    ),
    (
        "torchaudio_transform_data",
        "import torchaudio\ntorchaudio.transforms.MelSpectrogram()\n",
        [(2, 1, "torchaudio.transforms.MelSpectrogram", DAT)],
    ),
    (
        "nn_functional_via_torch_nn",
        "import torch.nn as nn\nnn.functional.relu(x)\n",
        [(2, 1, "torch.nn.functional.relu", CON)],
    ),
    (
        "print_not_finding",
        "import torch\nprint('torch.abs')\n",
        [],
    ),
    (
        "class_enum_member_is_not_a_typo",
        "import torch.distributed as dist\ndist.all_reduce(t, op=dist.ReduceOp.SUM)\n",
        # the complete inventory lists the enum's members: the value is reported, not the class
        [(2, 1, "torch.distributed.all_reduce", DIF), (2, 23, "torch.distributed.ReduceOp.SUM", MIS)],
    ),
    (
        "class_unlisted_attribute_reports_the_class",
        "import torch\ntorch.nn.Linear.no_such_attribute\n",
        [(2, 1, "torch.nn.Linear", DIF)],
    ),
    (
        "class_annotated_attribute_is_listed",
        "import torch\ntorch.nn.Linear.weight\n",
        [(2, 1, "torch.nn.Linear.weight", MIS)],
    ),
    (
        "for_else_reported_once",
        "import torch\nfor i in range(3):\n    pass\nelse:\n    torch.abs(i)\n",
        [(5, 5, "torch.abs", CON)],
    ),
    (
        "while_else_reported_once",
        "import torch\nwhile c:\n    x = torch.ones(1)\nelse:\n    x.view(1)\n",
        [(3, 9, "torch.ones", DIF), (5, 7, "torch.Tensor.view", CON)],
    ),
    (
        "try_except_else_finally",
        "import torch\n"
        "try:\n"
        "    a = torch.ones(1)\n"
        "except ValueError as err:\n"
        "    a = None\n"
        "else:\n"
        "    torch.exp(a)\n"
        "finally:\n"
        "    a.view(1)\n",
        [(3, 9, "torch.ones", DIF), (7, 5, "torch.exp", CON), (9, 7, "torch.Tensor.view", CON)],
    ),
    (
        "match_case_bodies",
        "import torch\n"
        "match mode:\n"
        "    case 'a':\n"
        "        y = torch.ones(1)\n"
        "    case _:\n"
        "        y = torch.zeros(1)\n"
        "y.view(1)\n",
        [(4, 13, "torch.ones", DIF), (6, 13, "torch.zeros", DIF), (7, 3, "torch.Tensor.view", CON)],
    ),
    (
        "internal_module_reexports",
        "from torch.nn.modules.conv import Conv2d\n"
        "from torch.utils.data.dataset import Dataset\n"
        "from torch.optim.optimizer import Optimizer\n"
        "Conv2d(1, 1, 1)\n"
        "class D(Dataset):\n"
        "    pass\n"
        "class O(Optimizer):\n"
        "    pass\n",
        [
            (4, 1, "torch.nn.Conv2d", DIF),
            (5, 9, "torch.utils.data.Dataset", DAT),
            (7, 9, "torch.optim.Optimizer", DIF),
        ],
    ),
    (
        "internal_module_dotted_reexport",
        "import torch\ntorch.nn.modules.conv.Conv2d(1, 1, 1)\nm = torch.nn.modules\n",
        [(2, 1, "torch.nn.Conv2d", DIF)],
    ),
    (
        "private_names_are_unknown",
        "import torch\n"
        "from torch.nn.modules.loss import _Loss\n"
        "class L(_Loss):\n"
        "    pass\n"
        "torch._C._get_tracing_state()\n",
        [(3, 9, "torch.nn.modules.loss._Loss", UNK), (5, 1, "torch._C._get_tracing_state", UNK)],
    ),
    (
        "function_return_inference",
        "import torch\n"
        "def make():\n"
        "    return torch.zeros(2)\n"
        "def use():\n"
        "    return make().view(2)\n"
        "def gen():\n"
        "    yield torch.ones(1)\n"
        "def use_gen():\n"
        "    for t in gen():\n"
        "        t.view(1)\n"
        "    return gen().view(1)\n"
        "def nothing():\n"
        "    pass\n"
        "def use_nothing():\n"
        "    nothing().view(1)\n"
        "async def coro():\n"
        "    return torch.ones(1)\n"
        "async def use_coro():\n"
        "    coro().view(1)\n"
        "    (await coro()).view(1)\n"
        "def maybe(flag):\n"
        "    if flag:\n"
        "        return None\n"
        "    return torch.ones(1)\n"
        "def use_maybe():\n"
        "    maybe(True).view(1)\n",
        [
            (3, 12, "torch.zeros", DIF),
            (5, 19, "torch.Tensor.view", CON),
            (7, 11, "torch.ones", DIF),
            (10, 11, "torch.Tensor.view", POS),
            (11, 18, "torch.Tensor.view", POS),
            (17, 12, "torch.ones", DIF),
            (20, 20, "torch.Tensor.view", POS),
            (24, 12, "torch.ones", DIF),
            (26, 17, "torch.Tensor.view", CON),
        ],
    ),
    (
        "function_analysed_at_its_first_call",
        "import torch\ndef make():\n    return torch.zeros(2)\nmake().view(2)\n",
        [(3, 12, "torch.zeros", DIF), (4, 8, "torch.Tensor.view", CON)],
    ),
    (
        "factory_function_returns_module",
        "import torch.nn as nn\n"
        "def build_model():\n"
        "    return nn.Sequential(nn.Linear(2, 2))\n"
        "model = build_model()\n"
        "model.eval()\n",
        [
            (3, 12, "torch.nn.Sequential", DIF),
            (3, 26, "torch.nn.Linear", DIF),
            (5, 7, "torch.nn.Module.eval", MIS),
        ],
    ),
    (
        "instantiation_analyses_init_first",
        "import torch.nn as nn\n"
        "class Net(nn.Module):\n"
        "    def head(self):\n"
        "        return self.fc\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.fc = nn.Linear(2, 2)\n"
        "model = Net()\n"
        "model.head().train()\n",
        [
            (2, 11, "torch.nn.Module", MIS),
            (7, 19, "torch.nn.Linear", DIF),
            (9, 14, "torch.nn.Module.train", MIS),
        ],
    ),
    (
        "recursive_function",
        "import torch\ndef f(n):\n    return f(n - 1) if n else torch.ones(1)\nf(3).view(1)\n",
        [(3, 31, "torch.ones", DIF), (4, 6, "torch.Tensor.view", CON)],
    ),
    (
        "grad_scaler_members",
        "import torch\n"
        "scaler = torch.cuda.amp.GradScaler()\n"
        "scaler.scale(loss).backward()\n"
        "scaler.step(opt)\n"
        "d = torch.device('cpu')\n"
        "d.type\n",
        [
            (2, 10, "torch.cuda.amp.GradScaler", MIS),
            # torch.amp.GradScaler's canonical spelling is the shorter torch.GradScaler (the same class)
            (3, 8, "torch.GradScaler.scale", MIS),
            (3, 20, "torch.Tensor.backward", MIS),
            (4, 8, "torch.GradScaler.step", MIS),
            (5, 5, "torch.device", MIS),
            (6, 3, "torch.device.type", MIS),
        ],
    ),
    (
        "annotation_forms",
        "import torch\n"
        "from typing import Optional, List\n"
        "import torch.nn as nn\n"
        "def f(a: 'torch.Tensor', b: Optional[torch.Tensor], c: torch.Tensor | None,\n"
        "      d: List[torch.Tensor], e: 'nn.Module'):\n"
        "    a.view(1)\n"
        "    b.view(1)\n"
        "    c.view(1)\n"
        "    d.view(1)\n"
        "    e.train()\n",
        [
            (4, 38, "torch.Tensor", MIS),
            (4, 56, "torch.Tensor", MIS),
            (5, 15, "torch.Tensor", MIS),
            (6, 7, "torch.Tensor.view", CON),
            (7, 7, "torch.Tensor.view", CON),
            (8, 7, "torch.Tensor.view", CON),
            (9, 7, "torch.Tensor.view", POS),
            (10, 7, "torch.nn.Module.train", MIS),
        ],
    ),
    (
        "container_items_are_unknown",
        "import torch\n"
        "for lin, x in zip(layers, inputs):\n"
        "    lin(x).view(-1)\n"
        "d = {}\n"
        "d['a'].unsqueeze(0)\n"
        "first, *rest = [torch.ones(1)]\n"
        "rest.append(1)\n",
        [
            (3, 12, "torch.Tensor.view", POS),
            (5, 8, "torch.Tensor.unsqueeze", POS),
            (6, 17, "torch.ones", DIF),
        ],
    ),
    (
        "tuples_of_tensors",
        "import torch\n"
        "def pair(x):\n"
        "    return torch.relu(x), torch.sigmoid(x)\n"
        "a, b = pair(1)\n"
        "b.view(1)\n"
        "pair(1)[0].view(1)\n"
        "for t in (torch.ones(1), torch.zeros(1)):\n"
        "    t.view(1)\n",
        [
            (3, 12, "torch.relu", MIS),
            (3, 27, "torch.sigmoid", CON),
            (5, 3, "torch.Tensor.view", CON),
            (6, 12, "torch.Tensor.view", CON),
            (7, 11, "torch.ones", DIF),
            (7, 26, "torch.zeros", DIF),
            (8, 7, "torch.Tensor.view", CON),
        ],
    ),
    (
        "class_attribute_holding_a_torch_class",
        "import torch.nn as nn\n"
        "class Q(nn.Module):\n"
        "    _FLOAT = nn.Linear\n"
        "    def convert(self):\n"
        "        return self._FLOAT.from_float\n"
        "    @classmethod\n"
        "    def make(cls):\n"
        "        return cls._FLOAT(2, 2)\n",
        [
            (2, 9, "torch.nn.Module", MIS),
            (3, 14, "torch.nn.Linear", DIF),
            (5, 16, "torch.nn.Linear", DIF),
            (8, 16, "torch.nn.Linear", DIF),
        ],
    ),
    (
        "member_assignment_is_a_usage",
        "import torch\n"
        "import torch.nn as nn\n"
        "m = nn.Linear(2, 2)\n"
        "for p in m.parameters():\n"
        "    p.requires_grad = False\n"
        "class N(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.fc = nn.Linear(2, 2)\n"
        "        self.training = False\n",
        [
            (3, 5, "torch.nn.Linear", DIF),
            (4, 12, "torch.nn.Module.parameters", MIS),
            (5, 7, "torch.Tensor.requires_grad", CON),  # p is a Parameter: mindspore.Parameter has it
            (6, 9, "torch.nn.Module", MIS),
            (9, 19, "torch.nn.Linear", DIF),  # self.training: a Cell has it too, no finding
        ],
    ),
    (
        "augmented_member_assignment",
        "import torch\n"
        "w = torch.ones(1)\n"
        "w.data += 1\n",
        [(2, 5, "torch.ones", DIF), (3, 3, "torch.Tensor.data", MIS)],
    ),
]
