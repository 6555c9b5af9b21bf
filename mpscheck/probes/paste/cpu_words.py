"""The user's words that the work runs on the CPU, or that a tool defaults to it: what a banner's "Device: cpu"
says, told in prose (probes/paste/prose.py reads each prose line with these). Kept apart from prose.py so that
each module stays small; never evidence that mps works.
"""

from __future__ import annotations

import re

from mpscheck.knowledge.needles import gated

# The user's words that the work runs on the CPU ("the embed model ... seem to be CPU only", "it only uses the CPU",
# "does not use the GPU", "it just goes to use CPU not the MPS", "只能CPU跑"): what a banner's "Device: cpu" says,
# in prose. Never the other way: prose is no evidence that mps works. A CPU-only build or machine is another
# matter (torch's own "If you are running on a CPU-only machine" is advice, not what happened).
CPU_ONLY = gated(
    r"(?i)\b(?:(?:seems?|appears?) to (?:be )?(?:run(?:ning)? on )?(?:the )?cpu(?:[- ]only)?"
    r"|(?:is|are|runs?|running|stays?) (?:on )?(?:the )?cpu[- ]only(?! (?:machine|build|wheel|version|torch|pytorch))"
    r"|(?:only|just) (?:uses?|using|runs? on|running on) (?:the )?cpu"
    # the passive and the reordered: "Only the CPU is used", "it uses only the CPU"
    r"|(?<!not )\bonly (?:the )?cpu (?:is|was|gets|got) (?:being )?used|\b(?:uses?|using) only (?:the )?cpu(?![\w-])"
    r"|(?:does(?: not|n't)|do(?: not|n't)|is(?: not|n't)|not) us(?:e|ing) (?:the )?(?:mps|gpu|metal)"
    # "just uses the Macbook's CPU instead of calling the Macbook's "MPS"": an owner's name and a verb between
    r"|(?:uses?|using|goes to use|runs? on|running on) (?:the |my |its )?(?:[\w-]{1,20}'s )?cpu,? "
    r"(?:instead of|not|rather than) (?:(?:calling|using|utili[sz]ing) )?(?:the |my |its )?(?:[\w-]{1,20}'s )?"
    r"[\"'`]?(?:mps|gpu|metal)"
    # Not the GPU seen idle ("GPU usage 0%", "the GPU is not being used?"): said of runs that asked for mps and
    # swapped, or fell back op by op (llama-mps#2, RVC#767), so no evidence of which device was asked for.
    # a tool's "no CUDA, so the CPU" retold: "it doesn't detect any CUDA and will switch to CPU"
    r"|(?:no|not|doesn't|don't|didn't|isn't|can't|cannot|without)\b[^\n]{0,30}?\bcuda\b[^\n]{0,40}?"
    r"\b(?:switch|fall|go|default|revert)\w* (?:back )?to (?:the )?cpu"
    # asked the other way round: "a way to use the GPU of an Apple Silicon Mac rather then using teh CPU"
    r"|us(?:e|ing) (?:the )?(?:gpu|mps|metal)\b[^\n]{0,60}?\b(?:rather th[ae]n|instead of)(?: \w{1,10}){0,2} cpu)\b"
    # the CPU said to be what runs now ("I suspect it's currently using the CPU"), and the question how to use the GPU
    # at all ("is there a way to leverage the M3's GPU", "how would I enable gpu"): the run does not ask for it
    r"|\b(?:it'?s|it is) (?:currently |still |only |just )?(?:using|running on) (?:the )?cpu\b"
    r"(?![ -](?:count|cores?|threads?|usage|time))"
    r"|\b(?:how (?:do|can|could|would|should) (?:i|we)|how to|is there a way to|any way to)"
    r"(?: \w{1,12}){0,3}? (?:enable|use|leverage|utili[sz]e|run on|make use of) (?:the )?(?:[\w']{1,12} ){0,2}?"
    r"(?:gpu|mps|metal)\b"
    # what happened, with words before "on" and a bare "instead" ("Observe it runs the training on *CPU* instead",
    # accelerate#692); never the advice ("run it on the CPU instead": no bare "run")
    r"|\b(?:runs|ran|trains|trained|(?:is|was|are|were|keeps?) (?:running|training))(?: [\w-]{1,20}){0,3}?"
    r" on (?:the )?cpu,? instead\b"
    # The same in Chinese ("只能CPU跑", "无法调用 mps"): no word boundaries between CJK and Latin letters.
    r"|只能\s*(?:用|使用|在)?\s*(?i:cpu)|(?:无法|不能)\s*(?:调用|使用|用)\s*(?i:mps|gpu)"
    # the CPU still used ("the log shows the device still is CPU", GPT-SoVITS#2612); in Chinese, mps set to no
    # effect ("把cpu改为mps并没有效果", FunASR#1802) or the CPU in use after all ("其实是在用cpu推理", GPT-SoVITS#1988)
    r"|\b(?:device|it) (?:is )?still (?:is |on |uses |using |runs on )?(?:the )?cpu\b(?![- ](?:only|build|wheel))"
    # any subject ("selecting auto in the Chatterbox engine still runs on CPU", TTS-Audio-Suite#160)
    r"|\bstill (?:runs?|running|ran|trains?|training|is running|executes?) on (?:the )?cpu\b"
    r"(?![- ](?:only|build|wheel))"
    r"|(?:改为|改成|设置为|设为|换成|指定为?)\s*(?i:mps)[^\n]{0,12}?(?:没有效果|没效果|无效|没用|不起作用|不生效)"
    r"|(?:其实|实际上?)\s*(?:是|还是)?\s*(?:在)?\s*(?:用|使用)\s*(?i:cpu)"
    # the code or the tool still (or by default) choosing the CPU ("看到代码里还是选的cpu", CosyVoice_for_MacOs#10)
    r"|(?:还是|仍然|依然|默认|都是)\s*(?:选|选择|选用|用|使用)了?\s*的?\s*(?:是)?\s*(?i:cpu)"
    # the run seen going back to the CPU ("I believe it keeps reverting to the cpu", pyannote-audio#1091), or on one
    # core ("is running on just one core", vec2text#72; "all computation happening on one core out of 10", #77)
    r"|\b(?:keeps?|kept) (?:on )?(?:reverting|going back|switching back|defaulting) to (?:the )?cpu\b"
    r"|\b(?:(?:runs?|running|ran|happen(?:s|ed|ing)?) on|uses?|using) (?:just |only )?(?:one|a single|1) (?:cpu )?"
    r"core\b"
    # The same in Portuguese, Spanish and French ("a separação de vozes roda inteira em CPU", allanrmartins/ScribaDev
    # #203; "se ejecuta en la CPU", "tourne sur le CPU"; "usa solo la CPU", "utilise uniquement le CPU")
    r"|\b(?:roda|rodam|rodando|corre|corren|corriendo|ejecuta|ejecutan|ejecutando|tourne|tournent)"
    r"(?: [\w-]{1,20}){0,2}? (?:em|en|sur) (?:a |la |le |el )?cpu\b"
    r"|\b(?:usa|usam|utiliza|utilizam|utilise|utilisent)(?: [\w-]{1,12})? (?:apenas|só|somente|solo|sólo|solamente"
    r"|seulement|uniquement) (?:a |la |le |el )?cpu\b"
)
# "mps.is_available() shows true" in words: a Mac with MPS, said (the CPU runs it there); never evidence mps ran.
MPS_AVAILABLE_SAID = gated(
    r"(?i)mps\.is_available\(\)`? ?(?:shows|returns?|returned|gives|gave|prints|printed|says|said|->|→|:) ?"
    r"[`'\"]?true\b"
)
# The same told as a tool's default ("Whisper defaults to CPU on macOS"), or the GPU left out ("completely ignores
# the M4 Pro's GPU", "the GPU is not being used"); not when asked ("..., and the GPU is not being used?": a guess),
# not a library's own log ("Defaulting to cpu instead": its notice, read by the error table). A GPU at 0 % is no
# such statement: a run on mps that swaps shows it too (LLaMA_MPS#2).
# The end of a sentence inside a line: what follows is another sentence.
SENTENCE_END = re.compile(r"[.!] {1,4}(?=[A-Z])")
CPU_SAID = gated(
    r"(?i)\bdefault(?:s|ed)? to (?:the |using (?:the )?)?cpu\b"
    r"|\bignor(?:es?|ed|ing) (?:the |my |its |your )?(?:[\w'’-]{1,20} ){0,2}?(?:gpu|mps|metal)\b"
    r"|\b(?:gpu|mps)\b (?:is|was|are|were)(?: not|n't|n’t) (?:being |even )?used\b"
    # a helper that looks for CUDA alone ("try_gpu() function can only detect 'cuda', but not 'mps'", d2l-en#2655), or
    # no setting for mps found ("I could not figure out the solution or setting about mps", fairseq#4704): nothing in
    # the run asks for mps, so it runs on the CPU
    r"|\bonly (?:detects?|checks?(?: for)?|looks? for|finds?|sees?) [\"'`]?cuda[\"'`]?,? (?:(?:but|and) )?not "
    r"[\"'`]?(?:mps|metal)\b"
    r"|\b(?:no|(?:not|can't|cannot|couldn't|unable to) (?:find|figure out)(?: [\w-]{1,12}){0,3}?) "
    r"(?:solutions?|settings?|options?|parameters?|flags?|arguments?)(?: or [\w-]{1,12}){0,2} "
    r"(?:about|for|to use|to enable) (?:the )?[\"'`]?(?:mps|metal)\b"
)


# Every reading above names one of these (markdown's *CPU* and `cpu` included): a line without any is skipped at once.
DEVICE_WORDS = ("cpu", "gpu", "mps", "metal", "core")


def names_device(line: str) -> bool:
    """A cheap first test for CPU_ONLY and cpu_said, which scan slowly: most lines of a log name no device."""
    low = line.lower()
    return any(word in low for word in DEVICE_WORDS)


def cpu_said(line: str) -> bool:
    """Said, not asked: no "?" closes the sentence ("defaults to CPU on Apple Silicon. Any chance we could expose
    MPS?" is a statement and then a question of its own)."""
    said = CPU_SAID.search(line)
    if said is None:
        return False
    rest = SENTENCE_END.split(line[said.end() : said.end() + 80], maxsplit=1)[0]
    return "?" not in rest
