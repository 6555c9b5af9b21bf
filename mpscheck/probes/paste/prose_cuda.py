"""The user's words and code lines that ask for CUDA on a Mac (the tool "keeps asking for cuda", a failure "due to
the lack of CUDA", `init_process_group("nccl")`, an unguarded `.cuda()`): what "Torch not compiled with CUDA enabled"
says, told or about to happen without the error shown. Read by prose.py on each line.
"""

from __future__ import annotations

from mpscheck.knowledge.needles import gated

# The user's words that the tool asks for CUDA ("it keeps asking for cuda libraries", "where can I disable cuda"):
# what "Torch not compiled with CUDA enabled" says, told without the error. Not "my Mac has no CUDA".
CUDA_ASKED = gated(
    r"(?i)\b(?:(?:asks?|asking|asked|requires?|requiring|needs?|wants?|insists? on) (?:for )?(?:the )?cuda"
    r"|(?:disable|turn off|switch off|get rid of) (?:the )?cuda"
    # the refusal retold: "it tells me that torch doesn't work with cuda"
    r"|(?:py)?torch (?:doesn't|does not|doesn’t|isn't|is not|won't) (?:work(?:ing)? with|compiled with|support) cuda"
    # a failure put down to CUDA missing ("Chatterbox doesn't work on Apple silicon due to the lack of CUDA"): the
    # code needs it, which "my Mac has no CUDA" alone does not say
    r"|(?:doesn't|does not|doesn’t|won't|can't|cannot|fails? to) (?:work|run|load|start)\b[^\n]{0,50}?"
    r"\b(?:due to|because of|because there is no|as there is no|since there is no) (?:the )?"
    r"(?:lack of |missing |no )?cuda"
    # CUDA written into the code, told in words ("It seems cuda is hardcorded somewhere", facebookresearch/co-tracker#9;
    # "Currently the code only support CUDA enabled devices", facebookresearch/sam2#34): the code asks for it
    r"|cuda (?:is |was |seems (?:to be )?)?hard[- ]?cor?ded|hard[- ]?cor?ded (?:to |for )?(?:use )?cuda"
    r"|(?:code|repo|project|model|script|it|version|release|implementation) (?:currently )?only "
    r"(?:supports?|works? (?:with|on)|runs? on) cuda"
    # ... its subject left out after mps or the Mac ("MPS Support is unavailable only supports CUDA", MVDream#38)
    r"|(?:mps|metal|apple|mac)\b[^\n]{0,40}?\bonly (?:supports?|works? (?:with|on)|runs? on) cuda"
    # a default that is CUDA, said of the code ("The above code defaults to "cuda", but it should consider whether
    # mps is available first", huggingface/peft#1575), not one taken only where CUDA is there ("... if available")
    r"|defaults? to [`'\"]?cuda\b[`'\"]?(?! ?(?:if|when|where|whenever|on machines)\b)"
    # conda's CUDA packages asked for by name ("versions of pytorch-cuda for MacOS", "conda install ... cudatoolkit",
    # conda-forge's "force Nvidia-specific packages (pytorch-gpu, cuda)", sib-swiss/pytorch-practical-training#4)
    r"|(?<!no )(?<!without )(?:pytorch-cuda|cudatoolkit|pytorch-gpu)"
    # a CUDA error retold ("i get an error saying no CUDA device found", unslothai/unsloth#685): the tool looked for
    # an NVIDIA GPU, which "there is no CUDA on a Mac" alone does not say
    r"|(?:error|exception|message|complains?|complaining|says|saying|tells? me)\b[^\n]{0,40}?"
    r"\bno (?:nvidia |cuda(?:[- ]capable)? )(?:nvidia |cuda )?(?:devices?|gpus?)(?: (?:is|are|was|were))? "
    r"(?:found|detected|available))\b"
    # ... told in Chinese: the tool's refusal retold ("现在运行就提示不支持cuda", ComfyUI_StepAudioTTS#11: "running
    # it says CUDA is not supported", then "I am on a Mac"), or the code said to need or support only CUDA; not
    # "我的mac没有cuda" (my Mac has no CUDA) nor a question whether it needs CUDA ("需要cuda吗")
    r"|(?:提示|报错|显示|告诉我|说)[^\n，。,.]{0,6}?(?:不支持|没有|找不到|缺少|需要)\s?cuda"
    r"|(?:只|仅)(?:支持|能用|能在)\s?cuda|(?:要求|依赖|必须用?)\s?cuda(?!\s?(?:吗|么|\?|？))"
)
# A traceback's source line that starts torch.distributed with NCCL (Meta's llama examples:
# `torch.distributed.init_process_group("nccl")`): code that ran and asks for an NVIDIA GPU, even where the stored
# traceback ends before the error line. A config's `backend = 'nccl'` alone is no call (nanoGPT runs on mps with it).
NCCL_CALLED = gated(r"""\binit_process_group\(\s?(?:backend\s?=\s?)?["']nccl["']""")
# The user's own code moving work to CUDA ("self.model.half().cuda()"), unguarded: a line that tests for CUDA
# ("... if torch.cuda.is_available() else ...") asks for nothing, nor does an indented line (inside a block, maybe
# an `if torch.cuda.is_available():` one).
CUDA_CALL = gated(r"^\S[^\n]*\.cuda\(\s*\)")
CUDA_GUARD = gated(r"\bis_available\b|\bif\b|\belse\b")
