"""The classes of input the 35th out-of-sample round (2026-11-24: Q&A pages, forums and blog posts) found explain
missing, each read generally: the user's macOS told by its number alone ("I was on 12.2", "current OS version ...
12.2.1") on a line that names macOS; and an MPS error told in words rather than quoted, in English or in Chinese
word order (the op named, then MPS said to lack it; the SparseMPS backend named before the op; MPS said not to
support float64 with no \\b between MPS and the Chinese text).

The texts are lines of the round's pages (tests/corpus names each).
"""

from __future__ import annotations

from mpscheck.checks.causes import explain_text
from mpscheck.probes.paste import prose


def _macos(lines: list[str]) -> list[str]:
    return [str(o.value) for o in prose.parse(lines) if o.fact == "host.macos_version"]


def test_a_macos_number_said_alone_beside_the_floor_is_the_users_macos() -> None:
    said = "# user: you need macOS 12.3+ for MPS. I was on 12.2 and got cryptic errors about missing Metal libraries."
    assert _macos([said]) == ["12.2"]  # scoding.kr's post
    assert explain_text(said).cause.id == "macos-too-old"


def test_the_current_os_version_said_with_its_number_is_the_users_macos() -> None:
    said = (  # openillumi.com's post, the error cut with "..."
        "# user: PyTorch strictly requires macOS 12.3+ for stable MPS functionality. If the current OS version is "
        "insufficient (e.g., 12.2.1), the error RuntimeError: The MPS backend is supported on MacOS 12.3+... halts"
    )
    assert _macos([said]) == ["12.2.1"]
    diagnosis = explain_text(said)
    assert diagnosis.cause.id == "macos-too-old"
    assert "12.2.1" in diagnosis.cause.summary


def test_a_number_said_alone_is_not_a_macos_without_macos_on_the_line() -> None:
    assert _macos(["# user: I'm on 12.1 with the cu121 wheel and torch 2.1"]) == []  # CUDA 12.1, no macOS
    assert _macos(["# user: I was on 12.3+ of macOS"]) == []  # a floor, not a version
    assert _macos(["# user: macOS is fine, I am on 2.1 of torch"]) == []  # no macOS-range number


def test_mps_said_not_to_support_float64_in_chinese_is_float64() -> None:
    said = "# user: 系统会抛出类型转换错误,提示MPS框架不支持float64数据类型。"  # an AUTOMATIC1111 thread retold
    assert explain_text(said).cause.id == "float64-unsupported"
    assert explain_text("# user: 提示MPS框架不支持float32的某些算子").cause.id != "float64-unsupported"


def test_an_op_said_not_implemented_on_mps_in_words_is_the_op_error_with_the_op_alone() -> None:
    chinese = "# user: 具体来说,当模型尝试执行aten::index_copy.out操作时,MPS后端尚未实现该算子。"  # LitGPT retold
    english = "# user: on my M1, generate fails: aten::index_copy.out is not implemented for MPS"
    for said in (chinese, english):
        diagnosis = explain_text(said)
        assert diagnosis.cause.id == "op-not-implemented"
        assert "aten::index_copy.out " in diagnosis.cause.summary  # the op alone, no Chinese word after it
        assert "操作" not in diagnosis.cause.summary


def test_the_sparsemps_backend_named_before_the_op_is_a_sparse_op() -> None:
    said = "# user: 错误信息显示,系统尝试在'SparseMPS'后端上运行'aten::empty.memory_format'操作,但这个操作当前仅支持CPU"
    diagnosis = explain_text(said)
    assert diagnosis.cause.id == "sparse-unsupported"
    assert diagnosis.cause.summary.startswith("aten::empty.memory_format has no kernel for sparse tensors on MPS")


def test_the_paravirtual_metal_device_named_anywhere_is_a_vm() -> None:
    lines = [
        "ggml_metal_init: found device: Apple Paravirtual device",  # a log's line
        '# user: 通过分析日志发现,系统实际上检测到了"Apple Paravirtual device"设备',  # llm.c's CI, retold
    ]
    assert [o.line for o in prose.parse(lines) if o.fact == "host.hypervisor"] == [1, 2]
    assert [o.line for o in prose.parse(["# user: an Apple M2 device"]) if o.fact == "host.hypervisor"] == []


def test_an_out_of_memory_without_its_numbers_in_a_vm_is_the_vm() -> None:
    oom = '# user: 系统报出"MPS backend out of memory"错误,MPS分配了0字节'  # the numbers told in Chinese only
    vm = "# user: the log names the Metal device: Apple Paravirtual device"
    diagnosis = explain_text(f"{oom}\n{vm}\n")
    assert diagnosis.cause.id == "virtual-machine"
    assert [e.line for e in diagnosis.cause.evidence] == [1, 2]
    assert "kern.hv_vmm_present" in diagnosis.cause.summary  # the command that tells it from a real Mac's
    assert explain_text(f"{oom}\n").cause.id == "out-of-memory"  # no VM, no CI: a real out-of-memory


def test_a_dtype_mps_lacks_told_in_words_is_that_dtype() -> None:
    chinese = "# user: ComfyUI 的控制台迅速泼了一盆冷水,报错提示 MPS 后端不支持 Float8 数据类型。"  # zjncs.github.io
    english = "# user: on my M2 the console says the MPS backend does not support the Float8_e4m3fn type"
    for said, dtype in ((chinese, "Float8"), (english, "Float8_e4m3fn")):
        diagnosis = explain_text(said)
        assert diagnosis.cause.id == "dtype-unsupported"
        assert diagnosis.cause.summary == f"MPS has no {dtype} type"
    assert explain_text("# user: MPS doesn't support float64 here").cause.id == "float64-unsupported"


def test_torchs_own_complex_messages_keep_their_message_reading() -> None:
    diagnosis = explain_text("RuntimeError: linalg.lu_factor(): MPS doesn't support complex types.")
    assert diagnosis.cause.summary.startswith("torch's MPS message")  # the messages table's, with its fixing release


def _machine(lines: list[str]) -> list[str]:
    return [str(o.value) for o in prose.parse(lines) if o.fact == "interpreter.machine"]


def test_the_python_said_to_be_x86_64_or_under_rosetta_is_an_x86_64_python() -> None:
    said = [
        "# user: 关键就在于,这个Python解释器很可能是通过Rosetta运行的x86_64版本。",  # an M1 blog post
        "# user: Conda或Pip安装了x86架构的二进制文件",  # CSDN's Open-AutoGLM post
        "# user: turns out my python was the x86_64 one from an old Anaconda",
    ]
    assert _machine(said) == ["x86_64", "x86_64", "x86_64"]
    paste = "# user: 搭载M1或M2芯片的Mac上运行开源项目时程序无法启动\n" + said[1] + "\n"
    assert explain_text(paste).cause.id == "rosetta-python"


def test_a_denial_or_a_tool_s_build_name_is_not_the_python_said_x86_64() -> None:
    assert _machine(["# user: my python is not running under Rosetta, it is arm64"]) == []
    assert _machine(["# user: Python解释器不是x86_64版本"]) == []
    assert _machine(["DEBUG Found `cpython-3.10.14-macos-x86_64-none` at `~/.venv/bin/python3`"]) == []  # uv's
    assert _machine(["# user: the pip wheel page lists torch for x86 and arm"]) == []  # no x86 build said


def test_the_chip_named_with_chinese_words_for_chip_or_apple_is_the_mac() -> None:
    lines = ["# user: 我的M2芯片跑不动", "# user: 苹果M1上很慢", "# user: M1 的模型在服务器上"]
    brands = [(o.line, o.value) for o in prose.parse(lines) if o.fact == "host.cpu_brand"]
    assert brands == [(1, "Apple M2"), (2, "Apple M1")]  # a bare "M1" with no Mac word stays unread
