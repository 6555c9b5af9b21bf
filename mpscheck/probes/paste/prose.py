"""A line of prose about the machine: "on an M2 Max with 32 GB", "MacBook Pro M1 16GB",
"macOS Sonoma 14.2", "an Intel Mac", "Mac mini (2018, Intel i7)", "Ventura 13.2", "uname -m returns x86_64",
"reports platform i386".

Only what the words say is kept: a chip named with an Apple-silicon family (M1..M5, optionally Pro,
Max, Ultra) on a line with a Mac word; "Intel" on a line with a Mac word; a memory size on the same line
as a chip; a macOS version written with its number (a release name alone gives its major version).
A chip from prose is recorded as "Apple M2 Max".
"""

from __future__ import annotations

import re

from mpscheck.knowledge.needles import gated
from mpscheck.probes.paste import wrong_words
from mpscheck.probes.paste.cpu_words import CPU_ONLY, MPS_AVAILABLE_SAID, cpu_said, names_device
from mpscheck.probes.paste.hang_words import hang_told
from mpscheck.probes.paste.intel_support import intel_of_a_release
from mpscheck.probes.paste.machine_words import SAYS, machine_said
from mpscheck.probes.paste.model import Observation, Seen, each_line
from mpscheck.probes.paste.near import Near
from mpscheck.probes.paste.normalise import spaced_cjk
from mpscheck.probes.paste.older_torch import OLDER_TORCH_WORKS
from mpscheck.probes.paste.onnx_engine import ONNX_ENGINE
from mpscheck.probes.paste.prose_cuda import CUDA_ASKED, CUDA_CALL, CUDA_GUARD, NCCL_CALLED
from mpscheck.probes.paste.slow_words import SLOWER_THAN_OP, slow_on_mps
from mpscheck.probes.paste.vm_words import vm_told
from mpscheck.probes.paste.wrong_words import WRONG_APART, WRONG_ON_GPU, WRONG_RESULTS, WRONG_SAID

KIND = "prose"
# Any casing, the tier joined or hyphenated as people type it: "m1 pro", "M1Pro", "M2-Max", "m3 max".
CHIP = gated(r"(?<![\w/.-])(?:Apple\s+)?(?P<family>[Mm][1-5])(?:(?:\s+|-)?(?P<tier>(?i:pro|max|ultra)))?(?![\w/.-])")
# Bounded by what is not a Latin letter or digit, so that "我的Mac只能" (no \b between CJK and Latin) counts.
MAC_WORD = gated(
    r"(?i)(?<![a-z0-9_])(?:mac[a-z0-9_]*|apple|silicon|chip|imac|mbp|mba)(?![a-z0-9_])|\b(?:on|my|an?|the) M[1-5]\b"
    r"|芯片|苹果"  # "M2芯片", "苹果M1": the chip and Apple in Chinese
)
MEMORY = gated(r"(?i)\b(?P<n>8|16|18|24|32|36|48|64|96|128|192|256|512)\s?GB\b(?!/s)")
PROCESSOR = gated(rf"\b(?:platform(?:\.processor\(\))?|processor) (?:{SAYS} )?[`'\"]?(?P<value>i386|arm64|arm)\b")
# Not a floor (a version a text requires): "natively starting from macOS 13.0", "MacOS 12.3+", "macOS 14 or later".
MACOS = gated(
    r"(?<!from )\b(?i:macOS|Mac OS|OS X|OSX)\s+(?:is\s+)?(?:(?:Big Sur|Monterey|Ventura|Sonoma|Sequoia|Tahoe)\s+)?"
    r"(?P<version>(?:1[0-5]|26)(?:\.\d+){0,2})\b(?!\.\d)(?!\+)(?!\s(?i:or|and) (?i:later|newer|above|higher))"
)
# The user's macOS told by its number alone, on a line that names macOS (a floor beside it, most often): "you need
# macOS 12.3+ for MPS. I was on 12.2", "requires macOS 12.3+ ... If the current OS version is insufficient (e.g.,
# 12.2.1)" (two blog posts of round 35). Only on a line that says macOS, so that "I'm on 12.1" of CUDA is not read.
MACOS_NUMBER_SAID = gated(
    r"(?i)\b(?:i was|i'm|i am|we were|we're|we are)\s+(?:still\s+)?on\s+(?P<version>(?:1[0-5]|26)\.\d+(?:\.\d+)?)\b"
    r"(?!\.\d)(?!\+)"
    r"|\bcurrent (?:os|macos) version\b[^\n\d]{0,40}?(?P<version2>(?:1[0-5]|26)\.\d+(?:\.\d+)?)\b(?!\.\d)(?!\+)"
)
MACOS_SAID = gated(r"(?i)\b(?:macos|mac os|os x)\b")
HOSTED_RUNNER = gated(
    r"(?i)(?<!self-)(?<!self )\b(?:github(?:-hosted)?|hosted|default|gha)\b[\w ]{0,60}\bmacos\b[\w -]{0,60}\brunners?\b"
    r"|\bmacos-(?:latest|1[2-5]|26)(?:-(?:xlarge|large))?\b.{0,200}?\brunners?\b"
    # "only happens on macOS 14 in the hosted runner of GitHub Actions"
    r"|\bmacos\b[\w .-]{0,40}?\b(?:github(?:-hosted)?|hosted)\b[\w ]{0,20}?\brunners?\b"
    # "`mps` does not work on macos runners" (sktime#8642): a CI's "macOS runner(s)", unless self-hosted (below)
    r"|\bmacos[ -]runners?\b"
)
# GitHub's hosted runners' tool cache in a path: the process ran on one (not torch's build paths, /Users/runner/work).
HOSTED_TOOLCACHE = gated(r"/Users/runner/hostedtoolcache/")
# The user's words that the Python (its conda, pip, interpreter) is an x86_64 build or runs through Rosetta: "这个Python
# 解释器很可能是通过Rosetta运行的x86_64版本" (an M1 blog post), "Conda或Pip安装了x86架构的二进制文件", "my python was
# the x86_64 one under Rosetta". Not on a line that denies it ("not under Rosetta", "不是x86").
ROSETTA_PYTHON_SAID = gated(
    r"(?i)(?<![\w.-])(?:python|conda|pip|interpreter|解释器)\b[^\n]{0,40}?"
    r"(?:rosetta|x86_64|x86 ?架构|x86 (?:build|version|binar))"
)
ROSETTA_DENIED = gated(r"(?i)\b(?:not|no longer|without)\b|n't\b|不是|并非|没有|而不是")
# The Metal device of a macOS VM, named in a log or retold ("系统实际上检测到了"Apple Paravirtual device"设备", an
# llm.c CI failure; ggml's "found device: Apple Paravirtual device"): only a VM's GPU is called so.
PARAVIRTUAL = gated(r"Apple Paravirtual device")
# The user's words that the run was a CI job ("Run platform tests on AutoGluon CI", "fails in GitHub Actions on
# macOS"): on macOS most often a hosted runner, a VM; read with an out-of-memory message's numbers only (a
# self-hosted Mac is CI too, so the cause built on it names the command that tells the two apart).
CI_SAID = gated(r"\bCI\b(?![-/]?(?:CD\b|\w))|\b(?i:github actions|continuous integration)\b")
# A CI job said to fail for memory in words ("the CI tests on macbook are failing with a memory error", TabPFN#270):
# an out-of-memory told, read with CI_SAID on the same line (a memory error alone may be the CPU's RAM).
MEMORY_FAILURE = gated(r"(?i)\b(?:out[- ]of[- ]memory|oom|memory ?errors?)\b")
INTEL = gated(r"\bIntel\b")
APPLE_TIER = gated(r"M[1-5] (?:Pro|Max|Ultra)$")
# "on Mac Silicon" / "my Apple silicon" with no chip named: the user's own arm64 Mac all the same (not a mention of
# Apple silicon in general, "support for the ARM-based Apple Silicon processors").
APPLE_SILICON = gated(
    r"(?i)\b(?:on|my|an?|using|with|have|own) (?:an? |the |my )?(?:apple|mac) silicon\b"
    # Apple's chips by their family letter: "cannot use the M chip", "Macs with M-series chips"
    r"|\b(?:use|on|my|an?|the|with|have|own) (?:apple )?m[- ](?:series )?chips?\b"
    # the chips after macOS ("MacOS M1/M2 support", "run on MacOS M-series chips", generative-models#6)
    r"|\bmac ?os (?:on )?(?:apple )?m(?:[1-5](?:/m?[1-5])+|[- ]series(?: chips?)?)(?![\w/])"
    # the one GPU the user means ("The Apple Silicon GPU (MPS) is not detected", stanza#1325)
    r"|\bthe (?:apple|mac) silicon gpu\b(?!s)"
)
# Apple silicon named at all, whoever's it is (a tool's support for it, not only the user's Mac).
SILICON_NAMED = gated(r"(?i)\b(?:apple|mac) silicon\b")
LABEL = gated(r"^[\w .()?-]+:\s")  # a "key: value" line
PROSE_LABEL = gated(r"^(?:Note|Context|Machine|Setup)\b")  # ... that is still prose
NAMES = {"Big Sur": "11", "Monterey": "12", "Ventura": "13", "Sonoma": "14", "Sequoia": "15", "Tahoe": "26"}
NAMED = gated(r"\b(?P<name>Big Sur|Monterey|Ventura|Sonoma|Sequoia|Tahoe)\b(?:\s+(?P<version>\d+(?:\.\d+){0,2})\b)?")
# A Mac with a Radeon (or any AMD) GPU, or a Core i3..i9 / Xeon CPU (a tier before the Mac too: "my i5 mac"), is Intel.
INTEL_MAC = gated(
    r"\b(?:Intel|intel|Radeon|AMD|Xeon|Core i[3579]|i[3579]-\d{4,5}[A-Z]{0,2}|i[3579](?= (?:[Mm]ac|iMac)))\b(?!-)"
)
# About This Mac's processor line ("2,6 GHz 6-Core Intel Core i7", "2.3 GHz Quad-Core Intel Core i5"): only a
# Mac words its CPU so (a PC's reads "Intel(R) Core(TM) i7-9750H CPU @ 2.60GHz"), so no Mac word is needed.
ABOUT_THIS_MAC_CPU = gated(r"\b\d[.,]\d{1,2} ?GHz (?:(?:Dual|Quad|\d{1,2})-Core )?Intel Core i[3579]\b")
# GitHub's runner labels, all VMs: the larger runners, and "macos-latest" (no platform string reads so)
RUNNER_LABEL = gated(r"(?i)\bmacos-(?:latest|1[2-5]|26)[-.](?:xlarge|large)\b|\bmacos-latest\b")
# The user says MPS (or the GPU) does not work at all: "training with MPS does not work", "the GPU isn't available".
GPU_WORD = gated(r"(?i)\b(?:mps|gpu|metal)\b")
NOT_WORKING = gated(
    r"(?i)\b(?:does(?:n't| not)|did(?:n't| not)|do(?:n't| not)|won't|will not|"
    r"is(?:n't| not)|cannot|can't|fail(?:s|ed)? to)\s+(?:work|be used|run|load|(?:be )?available)\b"
)
MPS_FAILS_SAID = Near(NOT_WORKING, 40, GPU_WORD, len("metal"))
# The user's words that the run crashes on mps ("made it start crashing on startup ... MPS"): a crash told, not shown.
# The user's words that mps (or the GPU) ran out of memory ("it constantly crashes with MPS out of memory error"), the
# message itself not shown: an out-of-memory told, which outranks the crash said on the same line.
OOM_SAID = gated(
    r"(?i)\b(?:mps|gpu|metal|vram|unified memory)\b[^\n]{0,40}?\b(?:out of memory|oom)\b"
    r"|\b(?:out of memory|oom)\b[^\n]{0,40}?\b(?:on|with|using) (?:the )?(?:mps|gpu)\b"
)
OOM_MESSAGE = gated(r"(?i)backend out of memory|OutOfMemoryError|Tried to allocate")  # torch's own, shown
CRASH_SAID = gated(r"(?i)\bcrash(?:es|ed|ing)?\b|\bbus error\b|\bsegfault|\babort(?:s|ed|ing)?\b")
# The user's words that the run fails on mps where the CPU's works ("works well when running on CPU but failed on
# Apple MPS", "it fails on mps but works on cpu", "works on the CPU but not on MPS"): a backend bug told with no
# error shown, neither a crash nor wrong numbers said. All three on one line: a failure word near mps, a working
# word near cpu, and a word that sets them against each other.
_FAILS = r"(?:fail(?:s|ed|ing)?|(?:does not|doesn't|did not|didn't|won't) work|not working|breaks|broke)"
_WORKS = r"(?:works?|worked|working|runs? fine|is fine|fine|correct(?:ly)?)"
# The words between may be code as users quote it ("fails during `loss.backward()` on MPS backend"): no space
# inside a word, so each word ends at the next space and the bounded run stays linear.
_ON = r"(?: [\w.`()'\"-]{1,30}){0,3}? (?:on|with|using|in|for) (?:the |an? )?(?:apple )?"
MPS_FAILS = gated(
    rf"(?i)\b{_FAILS}{_ON}mps\b|(?<![a-z])mps(?: [\w-]{{1,20}}){{0,2}}? {_FAILS}\b"
    r"|\bbut not (?:on |with |using |in )?(?:the )?(?:apple )?mps\b"
)
CPU_WORKS = gated(rf"(?i)\b{_WORKS}{_ON}cpu\b|\bcpu(?: [\w-]{{1,20}}){{0,2}}? {_WORKS}\b")
CONTRAST = gated(r"(?i)\b(?:but|while|whereas|however)\b")


# The user's words that the trouble goes away elsewhere, with no failure word ("When downgrading to torch 2.1.X or
# using the CPU, this does not happen", llm.c#36; "When I force to CPU it works as expected", LLMs-from-scratch#635):
# the run misbehaves on mps only, a backend bug of this torch. The judge takes it only where the paste names mps.
_NOT_HAPPEN = r"(?:does(?:n't| not)|did(?:n't| not)|won't) (?:happen|occur)"
ONLY_ON_MPS = gated(
    rf"(?i)\b{_NOT_HAPPEN}\b[^\n]{{0,30}}?\b(?:cpu|(?:py)?torch \d)"
    rf"|\b(?:cpu|(?:py)?torch \d[\w.]{{0,12}}),? (?:this|it|that|the (?:issue|problem|bug)) {_NOT_HAPPEN}\b"
    r"|\b(?:force|switch|chang|set|mov)\w{0,3} (?:it |everything |the device )?(?:back )?(?:to|on) (?:the )?cpu\b,?"
    r" (?:it |everything )?(?:works?|worked|is fine|runs? fine)\b"
    # mps itself switched for the CPU, and then it works ("when I change mps as cpu generating can work well",
    # karpathy/ng-video-lecture#35; "switching from mps to cpu fixes it")
    r"|\b(?:switch|chang|mov|replac)\w{0,3} (?:from )?(?:the )?mps (?:to|as|into|with|for|by) (?:the )?cpu\b"
    r"[^\n]{0,30}?\b(?:works?|worked|work well|is fine|runs? fine|fixe[sd] it|solve[sd] it)\b"
    # "CPU is unaffected" (pytorch#192212), "the CPU is not affected": the trouble is the mps run's alone
    r"|\bcpu (?:is|was|stays|remains) (?:unaffected|not affected)\b"
)


def _mps_fails_cpu_works(line: str) -> bool:
    return bool(CONTRAST.search(line) and MPS_FAILS.search(line) and CPU_WORKS.search(line))


# The user's words that a model saved on the Mac does not load elsewhere ("We trained a Model under Apple-Silicon and
# are not able to reload the model under Linux", "Loading model trained on MPS cannot be opened on non MPS system"):
# its tensors are tagged mps, told with no error shown.
SAVED_ON_MAC = gated(
    r"(?i)\b(?:trained|saved|created|exported|fine-?tuned)\b[^\n]{0,40}?\b(?:on|under|with|using|in) "
    r"(?:an? |my |the )?(?:mac(?:book)?s?\b|apple[- ]silicon|m[1-5]\b|mps)"
)
NOT_DONE = gated(r"(?i)\b(?:not|can't|cannot|unable|fail\w*|errors?|problems?|issues?|won't|doesn't)\b")
LOADED_ELSEWHERE = gated(
    r"(?i)\b(?:(?:re)?load\w*|open\w*|run\w*|us(?:e|ing)|deploy\w*)\b[^\n]{0,60}?\b(?:on|under|in|to) "
    r"(?:an? |the |my )?(?:linux|ubuntu|windows|docker|colab|kaggle|cuda|cpu[- ]only|non[- ]mps"
    r"|another (?:machine|computer)|(?:a |the )?server)\b"
)


# An NVIDIA RTX/GeForce GPU: no Mac has one, so a line naming it (and no Mac) is about a PC.
# Another system named with its version ("Ubuntu 20.04", "Windows 11") on a line with no Mac word: the user
# says where the Python runs, as "macOS 14.5" would.
OTHER_OS = gated(
    r"\b(?P<linux>Ubuntu|Debian|Fedora|CentOS|Rocky Linux|Arch Linux|WSL2?)\s+\d+(?:\.\d+)?\b"
    r"|\b(?P<windows>Windows)\s+(?:10|11|Server)\b"
)
# Another system running as a guest on the Mac ("Mac M1 with Ubuntu 22.04 running via VMware Fusion", "my Ubuntu
# VM", "Windows 11 in Parallels", "inside a docker container"): the Python runs there, not on macOS.
_LINUX = r"ubuntu|debian|fedora|linux"
_HYPERVISOR = r"vm|virtual machine|vmware(?: fusion)?|parallels|utm|virtualbox"
GUEST = gated(
    rf"(?i)\b(?:(?P<linux>{_LINUX})|windows)\b[^\n]{{0,40}}?\b(?:{_HYPERVISOR})\b"
    rf"|\b(?:{_HYPERVISOR})\b[^\n]{{0,40}}?\b(?:(?P<linux2>{_LINUX})|windows)\b"
    r"|\b(?:in|inside|within) (?:a |the |my )?(?P<linux3>docker|podman)\b"
    # the user's images or containers said to run ("my pytorch docker images are running in AMD64 emulation mode")
    r"|\b(?P<linux4>docker) (?:images?|containers?) (?:are|is|was|were) running\b"
)
# The user's words that the machine is not a Mac ("I'm not on a Mac", "an error obtained with Mac computer but I'm
# not on it"): MPS asked for where macOS is not, told without the system's name.
NOT_A_MAC = gated(
    r"(?i)\b(?:i'?m|i am|we'?re|we are) not (?:on|using|running on|running) (?:a |an |the )?mac(?:os|book)?\b"
    r"|\bmac(?:os)?\b[^\n]{0,60}?\bbut (?:i'?m|i am|we'?re|we are) not (?:on|using) (?:it|one)\b"
)
# The user's words that their torch was built without MPS ("my preexisting build of PyTorch ... did not actually have
# MPS support", "when I ran it MPS was not actually enabled"): is_built() False, told.
NO_MPS_BUILD = gated(
    r"(?i)\b(?:build|built|install(?:ation)?|wheel|torch|pytorch)\b[^\n]{0,60}?\b(?:did not|didn't|does not|doesn't"
    r"|has no|had no)(?: actually)? (?:have |include )?mps(?: support)?\b"
    r"|\bmps (?:was|is) not (?:actually )?(?:enabled|built|compiled)\b"
)
# The Mac itself named on the line of such words ("the GPU of an Apple Silicon Mac", "对于mac其实"), as MAC_WORD; or
# in the plural, the user's kind of machine ("Cannot be installed on M1 or M2 Macs", RosettaCommons/RFdiffusion#118).
MAC_NAMED = gated(r"(?i)(?<![a-z0-9_])(?:mac(?:book(?: pro| air)?| ?mini| studio| pro)?|imac)s?(?![a-z0-9_])")
# The user's words that memory grows on mps ("MPS backend leaks when input sizes vary", "memory grows continuously"):
# a leak of the MPS backend (its caches) told, not an out-of-memory error shown.
_GROWTH = (
    # an adverb between ("memory usage steadily increases, eventually leading to an Out of Memory", pytorch#145374)
    r"(?:leak(?:s|ing|ed)?|memory (?:usage )?(?:[a-z]{2,12}ly )?(?:keeps? |kept )?(?:grow(?:s|ing)?|increas(?:es|ing)"
    r"|climb(?:s|ing)|ris(?:es|ing)))"
)
GROWTH_WORDS = gated(rf"(?i)\b{_GROWTH}\b|(?:内|显)存\s*(?:泄[漏露]|爆|炸|(?:一直|不断|持续)(?:增长|上涨|涨))")
MEMORY_GROWTH = Near(GROWTH_WORDS)
# The user's words that it worked until macOS was updated ("Everything was fine before upgrading to the latest version
# of mac", "stopped working after updating to Sonoma"): a regression of this torch under the new macOS.
_UPDATE = r"(?:upgrad|updat)(?:e|ed|es|ing)"
_NEW_OS = r"(?:mac ?os|os ?x|sonoma|sequoia|ventura|monterey|tahoe|big sur|(?:my |the |of )mac\b|1[1-5]\.\d|26\.\d)"
MACOS_REGRESSION = gated(
    rf"(?i)\b(?:fine|worked|working|well|no problems?)\b[^\n]{{0,30}}?\b(?:before|until) (?:i |we )?{_UPDATE}\b"
    rf"[^\n]{{0,40}}?{_NEW_OS}"
    rf"|\b(?:since|after) (?:i |we )?{_UPDATE}\b[^\n]{{0,40}}?{_NEW_OS}[^\n]{{0,60}}?\b(?:broke|broken|stopped|fails?"
    r"|failing|crash\w*|wrong|no longer|not working|doesn't work|error)"
    rf"|\b(?:broke|stopped|crash\w*|fails?|no longer|not working)\b[^\n]{{0,40}}?\b(?:since|after) (?:i |we )?"
    rf"{_UPDATE}\b[^\n]{{0,40}}?{_NEW_OS}"
)
PC_GPU = gated(r"(?i)\b(?:rtx|gtx|geforce) ?\d{3,4}\b")
# The user says the install of torch failed (the error itself often a screenshot), maybe with the version wanted.
INSTALL_FAILED = gated(
    r"(?i)\b(?:can(?:not|'t|\s+not)|could(?:n't|\s+not)|unable\s+to|fail(?:s|ed)?\s+to)\s+(?:pip3?\s+)?install\s+"
    r"(?:py)?torch\b(?:\s*(?:==\s*|v(?:ersion)?\s*)?(?P<version>\d+\.\d+(?:\.\d+)?)\b)?"
)


def parse(lines: list[str]) -> list[Observation]:
    return each_line(KIND, lines, _line)


def _line(seen: Seen, line: str) -> list[Observation]:
    if not LETTER.search(line):  # numbers and marks only (a log's figures, `seq`): every reading needs a word
        return []
    return _words(seen, line)


LETTER = re.compile(r"[^\W\d_]")


def _words(seen: Seen, line: str) -> list[Observation]:
    if line.count("\ufffd") * 10 > len(line):  # bytes that were no text (a binary pasted): no one's words
        return []
    line = spaced_cjk(line)  # "mac系统intel架构", "M2芯片": Latin words against CJK text read as words
    found: list[Observation] = []
    if ONNX_ENGINE.search(line):  # the model runs in onnxruntime: torch's MPS is not the engine (onnx_engine.py)
        found.append(seen("paste.onnx_engine", True))
    wrong = WRONG_RESULTS.search(line) or any(said.search(line) for said in WRONG_SAID)
    if wrong:
        found.append(seen("paste.wrong_results", True))
    elif _mps_fails_cpu_works(line):
        found.append(seen("paste.mps_fails_cpu_works", True))
    elif ONLY_ON_MPS.search(line):
        found.append(seen("paste.only_on_mps", True))
    if not wrong and any(said.search(line) for said in WRONG_ON_GPU):  # the GPU of a Mac: the judge decides
        found.append(seen("paste.wrong_on_gpu", True))
    elif not wrong and wrong_words.picture_gone_black(line):  # a black picture: on a Mac, mps's (the judge's)
        found.append(seen("paste.picture_wrong", True))
    if OLDER_TORCH_WORKS.search(line):
        found.append(seen("paste.older_torch_works", True))
    if HOSTED_TOOLCACHE.search(line) or PARAVIRTUAL.search(line):
        found.append(seen("host.hypervisor", True))  # GitHub's macOS runners are VMs; so is a paravirtual GPU
    if _checkpoint_elsewhere(line):
        found.append(seen("paste.checkpoint_elsewhere", True))
    if OOM_SAID.search(line) and not OOM_MESSAGE.search(line) and not looks_like_code_or_output(line):
        found.append(seen("paste.oom_said", True))
    if hang_told(line) and not looks_like_code_or_output(line):  # the judge asks for mps named
        found.append(seen("paste.hang_said", True))
    if CRASH_SAID.search(line) and not looks_like_code_or_output(line):
        if "mps" in line or "MPS" in line:
            found.append(seen("paste.crash_said", True))
        elif CHIP.search(line):  # "on a m1 Pro, seems to run ... then crashes" (yolov5#9613): mps named elsewhere
            found.append(seen("paste.crash_said_mac", True))
    if NCCL_CALLED.search(line):
        found.append(seen("paste.cuda_asked", True))
    if looks_like_code_or_output(line):
        return found
    if not wrong and any(said.search(line) for said in WRONG_APART):  # mps named elsewhere: the judge decides
        found.append(seen("paste.wrong_apart", True))
    chip = CHIP.search(line)
    if PC_GPU.search(line) and not MAC_WORD.search(line) and not chip:
        found.append(seen("paste.pc_gpu", True))
    not_a_mac = bool(NOT_A_MAC.search(line))
    named_mac = bool(MAC_NAMED.search(line)) and not INTEL_MAC.search(line) and not not_a_mac
    if not_a_mac:
        found.append(seen("paste.not_a_mac", True))
    if NO_MPS_BUILD.search(line):
        found.append(seen("paste.no_mps_build", True))
    if MPS_AVAILABLE_SAID.search(line):
        found.append(seen("paste.mps_available_said", True))
    if names_device(line) and (CPU_ONLY.search(line.replace("*", "").replace("`", "")) or cpu_said(line)):
        found.append(seen("paste.device_used", "cpu"))
        if named_mac:
            found.append(seen("host.system", "Darwin"))
    if MPS_FAILS_SAID.search(line):
        found.append(seen("paste.mps_fails_said", True))
    if slow_on_mps(line):
        found.append(seen("paste.slow_said", True))
        if SLOWER_THAN_OP.search(line):
            found.append(seen("paste.slow_vs_op", True))
    if MEMORY_GROWTH.search(line):
        found.append(seen("paste.memory_growth", True))
    if MACOS_REGRESSION.search(line):
        found.append(seen("paste.macos_regression", True))
    if CUDA_ASKED.search(line) or (CUDA_CALL.search(line) and not CUDA_GUARD.search(line)):
        found.append(seen("paste.cuda_asked", True))
    if guest := GUEST.search(line):  # said before the Mac the guest runs on: the first observation wins
        linux = guest["linux"] or guest["linux2"] or guest["linux3"] or guest["linux4"]
        found.append(seen("host.system", "Linux" if linux else "Windows"))
        found.append(seen("paste.guest_said", "Linux" if linux else "Windows"))  # outranks a Mac told in words
    # "an Intel iMac (built on an M1)", "works on both Apple silicon and AMD GPUs" (keras#18437): not said which
    both = bool((chip or SILICON_NAMED.search(line)) and INTEL_MAC.search(line))
    intel = INTEL_MAC.search(line) and MAC_WORD.search(line) and not intel_of_a_release(line)  # intel_support.py
    # A chip with its tier in Apple's own casing ("M1 Pro", "M3 Max") is Apple's, even on a line with no Mac word
    # ("**系统:** M1 Pro"); typed casually ("m1 pro 16gb") it still needs one.
    if not both and (match := chip) and (APPLE_TIER.search(match[0]) or MAC_WORD.search(line)):
        brand = f"Apple {match['family'].upper()}" + (f" {match['tier'].title()}" if match["tier"] else "")
        found.append(seen("host.cpu_brand", brand))
        found.append(seen("host.arm64_hardware", True))
        found.append(seen("host.system", "Darwin"))
        if memory := MEMORY.search(line):
            found.append(seen("host.memory_bytes", int(memory["n"]) * 1024**3))
    elif not both and APPLE_SILICON.search(line) and not INTEL_MAC.search(line):
        found.append(seen("host.arm64_hardware", True))
        found.append(seen("host.system", "Darwin"))
    elif not both and (intel or ABOUT_THIS_MAC_CPU.search(line)):
        found.append(seen("host.arm64_hardware", False))
        found.append(seen("paste.intel_prose", True))
        found.append(seen("host.system", "Darwin"))
    if not chip and not MAC_WORD.search(line) and (match := OTHER_OS.search(line)):
        found.append(seen("host.system", "Linux" if match["linux"] else "Windows"))
    if named_mac and not any(o.fact == "host.system" for o in found):  # a Mac named, nothing else said of it
        found.append(seen("paste.mac_named", True))
    if CI_SAID.search(line) and "self-hosted" not in line.lower():
        found.append(seen("paste.ci_said", True))
        if MEMORY_FAILURE.search(line) and not any(o.fact == "paste.oom_said" for o in found):
            found.append(seen("paste.oom_said", True))
    runner = "macos" in line.lower() and (HOSTED_RUNNER.search(line) or RUNNER_LABEL.search(line))
    if (runner or vm_told(line, bool(CI_SAID.search(line)))) and "self-hosted" not in line.lower():
        found.append(seen("host.hypervisor", True))  # GitHub's macOS runners are VMs
    if match := INSTALL_FAILED.search(line):
        found.append(seen("paste.install_failed", match["version"] or ""))
    found += [seen(fact, value) for fact, value in machine_said(line)]
    if ROSETTA_PYTHON_SAID.search(line) and not ROSETTA_DENIED.search(line):
        found.append(seen("interpreter.machine", "x86_64"))
    if match := PROCESSOR.search(line):
        found.append(seen("interpreter.processor", match["value"]))
    if match := MACOS.search(line):
        found.append(seen("host.macos_version", match["version"]))
        found.append(seen("host.system", "Darwin"))
    elif match := NAMED.search(line):
        version = (
            match["version"] if match["version"] and match["version"].split(".")[0] == NAMES[match["name"]] else None
        )
        found.append(seen("host.macos_version", version or NAMES[match["name"]]))
        found.append(seen("host.system", "Darwin"))
    elif (match := MACOS_NUMBER_SAID.search(line)) and MACOS_SAID.search(line):
        found.append(seen("host.macos_version", match["version"] or match["version2"]))
        found.append(seen("host.system", "Darwin"))
    return found


def _checkpoint_elsewhere(line: str) -> bool:
    """Saved on the Mac, loaded elsewhere, and said not to work, all on one prose line."""
    shown = SAVED_ON_MAC.search(line) and LOADED_ELSEWHERE.search(line) and NOT_DONE.search(line)
    return bool(shown) and not looks_like_code_or_output(line)


# A line of Python that sets a name ("device = 'mps'  # run on cpu only", nanoGPT's config with its own comment):
# code, whose trailing comment is the author's note, not the user's words about this run.
# An issue title's tag ("[MPS] 3D `F.linear` ... is up to 8.5x slower", pytorch#189847; "[Bug]: ..."): words, not a log.
TITLE_TAG = gated(r"^\[(?i:mps|bug|feature|question|help|performance|regression)\]:? [\w`']")
ASSIGNMENT = gated(r"""[a-z_][\w.]{0,60} = (?:['"]|[\w.]{1,60}(?: *#|$))""")


def looks_like_code_or_output(line: str) -> bool:
    """Paths, key: value lines and tracebacks are read by the other parsers, not as prose."""
    stripped = line.strip()
    return (
        not stripped
        or (stripped.startswith(("File ", ">>>", "$", "[", "/", "Traceback")) and not TITLE_TAG.match(stripped))
        or bool(LABEL.match(stripped) and not PROSE_LABEL.match(stripped))
        or bool(ASSIGNMENT.match(stripped))
    )
