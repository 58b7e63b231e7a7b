"""`msmigrate check` on names it cannot compare: no worker is started, typo suggestions only for typos."""

from click.testing import CliRunner

from msmigrate.cli import main


def check(*args: str):
    return CliRunner().invoke(main, ["check", *args, "--mindspore-version", "2.6"])


def test_real_but_unmapped_api_gets_no_typo_suggestions():
    # torch.save now has a derived mapping (mindspore.save_checkpoint, from the 1.10 table); the only
    # candidate of torch.aminmax (mindspore.ops.aminmax) failed its CPU check, so none is offered
    result = check("torch.aminmax")
    assert result.exit_code == 1
    assert "  torch.aminmax is not in the MindSpore 2.6 mapping table\n" in result.output
    assert "did you mean" not in result.output  # it suggested torch.ravel, torch.solve, torch.Use …


def test_typo_still_gets_suggestions():
    result = check("torch.sofmax")
    names = "torch.softmax, torch.fmax, torch.max, torch.Tensor.fmax, torch.log_softmax"
    assert f"  did you mean: {names}?\n" in result.output
