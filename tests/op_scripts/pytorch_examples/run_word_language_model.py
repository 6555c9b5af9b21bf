"""Run pytorch/examples word_language_model/main.py unchanged on a random text corpus (no download)."""

import os
import random
import runpy
import sys
import tempfile

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "word_language_model")
folder = tempfile.mkdtemp(prefix="wlm-")
words = [f"w{i}" for i in range(300)]
rng = random.Random(0)
for name, lines in (("train.txt", 400), ("valid.txt", 60), ("test.txt", 60)):
    with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
        for _ in range(lines):
            handle.write(" ".join(rng.choice(words) for _ in range(12)) + "\n")
sys.path.insert(0, HERE)  # main.py imports data and model from its own folder
os.chdir(folder)
sys.argv = [
    os.path.join(HERE, "main.py"),
    "--data",
    folder,
    "--epochs",
    "1",
    "--log-interval",
    "20",
    "--save",
    os.path.join(folder, "model.pt"),
    *sys.argv[1:],
]
runpy.run_path(sys.argv[0], run_name="__main__")
