"""The classes of input the 43rd out-of-sample round (2026-11-25: science, reinforcement-learning, graph, medical,
time-series, tabular and audio libraries on a Mac: nnU-Net, mmdetection, torchrl, Lightning's fabric RL example,
pytorch-forecasting, mace, orb-models, tabnet, R's torch, bark, AudioLDM, marker, ml-agents, pytorch/pytorch) found
explain missing, each read generally:

- a traceback whose frames show CUDA called (a frame's source line calling ``.cuda(...)``, torch's own
  ``Module.cuda`` / ``torch.cuda._lazy_init`` frames), even where the stored copy ends before the error line
  (probes/paste/cuda_frames.py);
- one result printed on two lines labelled by device, ``CPU: True`` above ``MPS: False``, values apart
  (probes/paste/labelled_values.py);
- a library's pin of torch below 1.12 told in words or written as a requirement ("requires Pytorch to be <=1.11.0",
  ``torch==1.10.2``) (probes/paste/torch_pins.py).

The texts are lines of the round's pastes (tests/corpus names each) and other wordings of the same class.
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text
from mpscheck.probes.paste import cuda_frames, labelled_values, torch_pins


def _cuda_asked(text: str) -> bool:
    return any(o.fact == "paste.cuda_asked" for o in cuda_frames.parse(text.split("\n")))


def _differ(text: str) -> bool:
    return any(o.fact == "paste.values_differ" for o in labelled_values.parse(text.split("\n")))


def _pinned(line: str) -> str | None:
    return next((o.value for o in torch_pins.parse([line]) if o.fact == "paste.torch_pinned"), None)


def test_cuda_called_in_a_tracebacks_frames_is_cuda_requested_even_when_the_copy_is_cut() -> None:
    """Class: a traceback whose frames show the code calling CUDA (``.cuda(...)`` on a frame's source line, or torch's
    Module.cuda / torch.cuda lazy-init frames), with or without its last line, on a Mac."""
    cut = (
        '>>> device = "mps" if torch.backends.mps.is_available() else "cpu"\n'
        "Traceback (most recent call last):\n"
        '  File "<stdin>", line 1, in <module>\n'
        '  File "/Users/u/envs/x/lib/python3.12/site-packages/orb_models/forcefield/pretrained.py", line 313, in arch\n'
        "    model.cuda(device)\n"
        '  File "/Users/u/envs/x/lib/python3.12/site-packages/torch/nn/modules/module.py", line 1096, in cuda\n'
        "    return self._apply(lambda t: t.cuda(device))\n"
        '  File "/Users/u/envs/x/lib/python3.12/site-packages/torc'
    )
    assert explain_text(cut).cause.id == "cuda-requested-on-mac"  # orb-models#172
    assert _cuda_asked(cut)
    # torch's own frames alone (the user's frame elsewhere), and IPython's arrow lines
    assert _cuda_asked('  File "/Users/me/venv/site-packages/torch/cuda/__init__.py", line 239, in _lazy_init')
    assert _cuda_asked("File ~/miniconda3/site-packages/torch/nn/modules/module.py:905, in cuda(self, device)")
    assert _cuda_asked("---> 12 net = Net().cuda()")
    assert _cuda_asked('  File "/Users/me/app/run.py", line 40, in main\n    x = batch.to(dt).cuda(non_blocking=True)')
    for text in (
        '  File "/Users/me/app/run.py", line 40, in main\n    if torch.cuda.is_available(): model.cuda()',  # guarded
        '  File "/Users/me/app/run.py", line 40, in main\n    model = model.cuda() if use_cuda else model',
        '  File "/Users/me/app/run.py", line 40, in main\n    torch.cuda.empty_cache()',  # no .cuda( call
        "    model.cuda(device)",  # an indented line of a snippet, under no frame: prose_cuda.py's to judge
        '  File "/Users/me/venv/site-packages/torch/nn/modules/module.py", line 1150, in to',  # .to(), not .cuda()
        '  File "/Users/me/venv/site-packages/mylib/cuda/__init__.py", line 9, in _lazy_init',  # not torch's
    ):
        assert not _cuda_asked(text), text
    # with the error line present, the error decides (a Linux CUDA box's own errors are no Mac's)
    linux = (
        '  File "/home/u/venv/lib/python3.10/site-packages/torch/nn/modules/module.py", line 905, in cuda\n'
        "RuntimeError: CUDA error: out of memory"
    )
    assert explain_text(linux).cause.id != "cuda-requested-on-mac"


def test_one_result_printed_under_a_cpu_and_an_mps_label_apart_is_a_wrong_result() -> None:
    """Class: the user's comparison printed as ``label: value`` twice, the labels differing in the device alone, the
    values of one kind (booleans, a number, a printed tensor) and apart."""
    said = (
        "# user: lower_cholesky.check(x) for x = torch.tensor([[1.4142]]), printed on the CPU and on mps:\n"
        "CPU: True\nMPS: False\n\nPyTorch version: 1.14.0.dev20221020\nOS: macOS 12.4 (arm64)"
    )
    assert explain_text(said).cause.id == "metal-bug-fixed-later"  # pytorch#87402
    assert _differ("CPU: True\nMPS: False")
    assert _differ("cpu loss: 0.6931\nmps loss: 2.3026")
    assert _differ("MPS result = tensor([1., 0., 9.], device='mps:0')\nCPU result = tensor([1., 2., 9.])")
    assert _differ("# cpu: 1.0\n\n# mps: -3.5")  # two lines apart
    for text in (
        "CPU: True\nMPS: True",  # the same
        "cpu loss: 0.6931\nmps loss: 0.6932",  # rounding
        "CPU: Apple M1 Pro\nMPS: True",  # not one kind of value
        "CPU time: 1.2\nMPS time: 0.3",  # a timing differs by nature
        "cpu cores: 8\nmps cores: 10",  # the machine
        "MPS available: True\nCPU available: False",  # an availability flag
        "CUDA: False\nMPS: True",  # no CPU
        "cpu loss: 0.69\nmps accuracy: 0.12",  # labels differ beyond the device
        "CPU: True\n\n\n\nMPS: False",  # too far apart to be one comparison
        "cpu: 1.0 s\nmps: 3.0 s",  # a unit
    ):
        assert not _differ(text), text


def test_a_library_pinning_torch_below_1_12_is_a_torch_too_old() -> None:
    """Class: a pin of torch below the first MPS release (an upper bound or an exact release), told in words or
    written as a requirement; a floor, a newer pin, pip's "but you have" line and other packages' pins are not."""
    said = (
        "# user: Starting Pytorch version 1.13, it can use GPU on Apple silicon devices but the latest release of "
        "mlagents which is 0.30.0 requires Pytorch to be <=1.11.0 which unfortunately does not support GPU "
        "acceleration on Apple silicon devices."
    )
    assert explain_text(said).cause.id == "torch-too-old"  # ml-agents#5855
    assert _pinned("requires Pytorch to be <=1.11.0") == "1.11.0"
    assert _pinned("Requires-Dist: torch<=1.11.0,>=1.8.0") == "1.11.0"
    assert _pinned("install_requires=['torch==1.10.2']") == "1.10.2"
    assert _pinned("in that project torch is pinned to 1.9") == "1.9"
    assert _pinned("the tool requires pytorch ~= 1.8.1") == "1.8.1"
    for line in (
        "torch>=1.8",  # a floor
        "torch==2.1.0",  # has mps
        "requires torch <= 1.13",  # 1.12 and 1.13 have mps
        "torchvision==0.10.0",  # torchvision's own numbers
        "mlagents 0.30.0 requires torch<=1.11.0,>=1.8.0, but you have torch 2.0.1 which is incompatible.",
        "torch 1.11 works fine on my Intel box",  # no pin
        "ERROR: No matching distribution found for torch==1.11.0+cu113",  # a failed install: nothing installed
        "ERROR: Could not find a version that satisfies the requirement torch==1.10.2 (from versions: 1.11.0)",
        "          torch==1.10.0",  # uv's list of the releases it tried
        "[pip3] torch==1.8.0.dev20201117",  # collect_env's installed list, read by collect_env.py
        "Because torch==1.11.0 has no wheels with a matching platform tag, we can conclude that it cannot be used.",
    ):
        assert _pinned(line) is None, line
    # the torch the paste shows installed outranks a pin told in words
    shown = "# user: the repo says torch==1.10.2 but I have a newer one\nPyTorch version: 2.1.0\nOS: macOS 14.1 (arm64)"
    assert explain_text(shown).cause.id != "torch-too-old"
