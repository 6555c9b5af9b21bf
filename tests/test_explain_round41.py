"""The classes of input the 41st out-of-sample round (2026-11-25: forums and Q&A sites: the PyTorch, Hugging Face,
Julia and Apple Developer forums, Stack Overflow, and forum posts carried into GitHub issues: a Discussion's opening
post quoted in an issue, "Update" replies, errors quoted with "> ", several attempts in one post) found explain
missing, each read generally:

- TensorFlow's placer refusing an op on the GPU for want of a GPU kernel (on a Mac, the tensorflow-metal plugin), in
  its three wordings: the engine is TensorFlow, so the answer is its CPU placement, not torch's upgrade
  (knowledge/engine_rows.py);
- an error no row knows that another engine raised (TensorFlow, JAX, MLX: its qualified exception name or its
  package's frames, and no frame of torch's) is no longer called a torch backend bug fixed by upgrading torch: it
  says which engine raised it and claims nothing about MPS (checks/causes/other_engine.py);
- a PYTORCH_* variable named in a question ("I don't know where to type PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0", "how
  do I set ...") is not a setting: the paste no longer "sets" it, so an out-of-memory is not read as a watermark that
  never reached torch (probes/paste/environment.py).

The texts are lines of the round's pastes (tests/corpus names each) and other wordings of the same classes.
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text
from mpscheck.knowledge import errors as table
from mpscheck.probes.paste import environment

APPLE_FORUM = (
    "tensorflow.python.framework.errors_impl.InvalidArgumentError: Could not satisfy device specification "
    "'/job:localhost/replica:0/task:0/device:GPU:0'. enable_soft_placement=0. Supported device types [CPU]. All "
    "available devices [/job:localhost/replica:0/task:0/device:GPU:0, /job:localhost/replica:0/task:0/device:CPU:0]. "
    "[Op:StatelessRandomGetKeyCounter]"
)


def _row_ids(text: str) -> set[str]:
    return {hit.row.id for hit in table.find(text.splitlines())}


def test_tensorflow_refusing_an_op_on_the_gpu_is_tensorflows_missing_kernel() -> None:
    """TensorFlow's placer: the GPU device asked for has no kernel for the op, only the CPU has one."""
    diagnosis = explain_text(APPLE_FORUM)  # apple-devforums-759438
    assert diagnosis.cause.id == "backend-has-no-mps"
    assert diagnosis.cause.fix is not None
    assert "tf.config.set_soft_device_placement(True)" in diagnosis.cause.fix.commands
    assert "torch" not in " ".join(diagnosis.cause.fix.commands)
    for line in (
        APPLE_FORUM.replace("StatelessRandomGetKeyCounter", "RngReadAndSkip"),
        "InvalidArgumentError: Cannot assign a device for operation embedding/embedding_lookup: Could not satisfy "
        "explicit device specification '/device:GPU:0' because no supported kernel for GPU devices is available.",
        "tensorflow.python.framework.errors_impl.NotFoundError: No registered 'RandomUniformInt' OpKernel for 'GPU' "
        "devices compatible with node {{node RandomUniformInt}}",
        "Could not satisfy explicit device specification '/job:localhost/replica:0/task:0/device:GPU:0' ... "
        "Supported device types [CPU]",
    ):
        assert "tensorflow-op-no-gpu-kernel" in _row_ids(line), line
    for line in (
        # GPU among the device types: a placement failure of another kind, not a missing GPU kernel
        "Could not satisfy device specification '/job:localhost/replica:0/task:0/device:GPU:1'. "
        "enable_soft_placement=0. Supported device types [GPU, CPU]. All available devices "
        "[/job:localhost/replica:0/task:0/device:CPU:0, /job:localhost/replica:0/task:0/device:GPU:0].",
        "RuntimeError: Expected one of cpu, cuda, xpu, mkldnn device type at start of device string: mps",
        "No registered converter for GPU devices",
        "the op has no kernel for GPU devices in this build",
    ):
        assert "tensorflow-op-no-gpu-kernel" not in _row_ids(line), line


def test_an_unknown_error_of_another_engine_is_not_called_a_torch_bug() -> None:
    """TensorFlow's, JAX's or MLX's own error (qualified name or the engine's frames, no torch frame): named, not
    blamed on torch; the same words from torch's frames stay torch's."""
    for text, engine in (
        (
            "tensorflow.python.framework.errors_impl.InternalError: Failed copying input tensor from "
            "/job:localhost/replica:0/task:0/device:CPU:0 to /job:localhost/replica:0/task:0/device:GPU:0 in order to "
            "run _EagerConst: Dst tensor is not initialized.",
            "TensorFlow",
        ),
        ("jaxlib.xla_extension.XlaRuntimeError: UNIMPLEMENTED: default_memory_space is not supported.", "JAX"),
        (
            "Traceback (most recent call last):\n"
            '  File "/Users/me/fit.py", line 9, in <module>\n'
            "    model.fit(x, y, epochs=3)\n"
            '  File "/opt/homebrew/lib/python3.11/site-packages/keras/src/utils/traceback_utils.py", line 122, in '
            "error_handler\n"
            "    raise e.with_traceback(filtered_tb) from None\n"
            "InternalError: Graph execution error: a Metal command failed on the GPU device",
            "Keras",
        ),
    ):
        diagnosis = explain_text(text)
        assert diagnosis.cause.id == "not-enough-evidence", text
        assert engine in diagnosis.cause.summary, text
        assert "upgrade torch" not in diagnosis.cause.summary.lower()
    # torch's frames in the traceback: torch's error, whatever module names the words carry
    torch_framed = (
        "Traceback (most recent call last):\n"
        '  File "/Users/me/run.py", line 4, in <module>\n'
        "    y = model(x)\n"
        '  File "/Users/me/venv/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1511, in _call_impl\n'
        "    return forward_call(*args, **kwargs)\n"
        "RuntimeError: a Metal command failed on the GPU device"
    )
    assert "raised by" not in explain_text(torch_framed).cause.summary
    for text in (
        "ModuleNotFoundError: No module named 'tensorflow'",  # no engine raised anything
        "RuntimeError: MPS backend out of memory (MPS allocated: 8.93 GB, other allocations: 120.39 MB, max allowed: "
        "9.07 GB). Tried to allocate 25.00 MB on private pool.",
    ):
        assert "raised by" not in explain_text(text).cause.summary, text


def _set(line: str) -> set[str]:
    return {o.fact for o in environment.parse([line])}


def test_a_variable_named_in_a_question_is_not_set() -> None:
    """Asking where or how to set a variable is not having set it; saying one set it, or the shell line, still is."""
    said = (
        "I am a total noob and I don't know where to type PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 and i get this error:\n"
        "\n"
        "RuntimeError: MPS backend out of memory (MPS allocated: 8.89 GB, other allocations: 172.98 MB, max allowed: "
        "9.07 GB). Tried to allocate 6.25 MB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable "
        "upper limit for memory allocations (may cause system failure)."
    )
    diagnosis = explain_text(said)  # fooocus-1271
    assert (diagnosis.cause.id, diagnosis.cause.variant) == ("out-of-memory", "too-large")
    watermark = "interpreter.env.PYTORCH_MPS_HIGH_WATERMARK_RATIO"
    fallback = "interpreter.env.PYTORCH_ENABLE_MPS_FALLBACK"
    for line, fact in (
        (
            "Still don't understand where to type PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable the upper limit",
            watermark,
        ),
        ("how do I set PYTORCH_ENABLE_MPS_FALLBACK=1 on a Mac?", fallback),
        ("Where should I put PYTORCH_ENABLE_MPS_FALLBACK=1 in the webui-user.sh?", fallback),
        ("how to set the environment variable PYTORCH_ENABLE_MPS_FALLBACK=1 in pycharm", fallback),
        ("what is PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 for", watermark),
    ):
        assert fact not in _set(line), line
    for line, fact in (
        ("export PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0", watermark),
        ("I set PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 and it still fails", watermark),
        ("where I set PYTORCH_ENABLE_MPS_FALLBACK=1 in invoke.sh, nothing changed", fallback),
        ("PYTORCH_ENABLE_MPS_FALLBACK=1 python web_demo.py --device mps", fallback),
    ):
        assert fact in _set(line), line
