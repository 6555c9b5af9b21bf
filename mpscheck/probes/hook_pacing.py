"""The start-up hook's second file: what keeps recording cheap and the recorded program unchanged.

Copied beside ``sitecustomize.py`` (probes/startup_hook.py) and loaded by path from there; the same
rules apply (Python 3.8 syntax, standard library and torch only, never imports mpscheck).

- Pacing: the recording mode counts every call until the set of op signatures has been stable for
  a while (``STABLE_BOUNDARIES`` batch or optimizer-step boundaries with nothing new), then leaves
  the dispatch stack, so a long training loop stops paying for it; it comes back at each phase
  change (the first iteration of a DataLoader it has not seen, the end of a DataLoader iteration,
  the first ``eval()``/``train()`` of a module) and pauses again once that phase is stable. Every
  pause and re-arm is written down, so the report says which calls were counted.
  ``MPSCHECK_RECORD_ALL=1`` keeps it on for every call.
- Sides: ops that the DataLoader machinery runs (sampler, seeding, collate, workers) and ops on the
  results of ``.cpu()`` are marked, since they stay on the CPU on a Mac whatever the device.
- Invisibility: mpscheck's own variables are taken out of the script's ``os.environ`` (the process
  environment keeps them, so child Pythons are recorded too), and the mode lets ``torch.compile``
  compile (``ignore_compile_internals``), so compiled code runs as it would without mpscheck.
"""

import contextlib
import functools
import os
import threading

STABLE_BOUNDARIES = 6  # e.g. three training steps (a batch and an optimizer step each) with nothing new
RECORD_ALL_ENV = "MPSCHECK_RECORD_ALL"
MAX_EVENTS = 40


class Pacer(object):
    """Pauses the recording mode once nothing new appears, and re-arms it at phase changes."""

    def __init__(self, recorder, record_all, stable=STABLE_BOUNDARIES):
        self.recorder = recorder
        self.record_all = record_all
        self.stable = stable
        self.armed = True
        self.quiet = 0
        self.steps = 0
        self.batches = 0
        self.events = []
        self.main = threading.main_thread()

    def new_signature(self):
        self.quiet = 0

    def boundary(self, kind):
        """A safe point outside any dispatch (a batch was fetched, an optimizer stepped)."""
        if kind == "step":
            self.steps += 1
        else:
            self.batches += 1
        if not self.armed or self.record_all:
            return
        self.quiet += 1
        if self.quiet >= self.stable and threading.current_thread() is self.main:
            self._pause()

    def _pause(self):
        from torch.utils._python_dispatch import _get_current_dispatch_mode

        if _get_current_dispatch_mode() is not self.recorder:
            return  # a mode of the script's own is above ours: leave the stack as it is
        self.recorder.__exit__(None, None, None)
        self.armed = False
        self._note("paused", "no new op signature in %d batches/steps" % self.quiet)

    def rearm(self, why):
        if self.armed or self.record_all or threading.current_thread() is not self.main:
            return
        self.recorder.__enter__()
        self.armed = True
        self.quiet = 0
        self._note("re-armed", why)

    def _note(self, what, why):
        if len(self.events) < MAX_EVENTS:
            self.events.append({"event": what, "why": why, "after_steps": self.steps, "after_batches": self.batches})

    def summary(self):
        return {
            "record_all": self.record_all,
            "stable_boundaries": self.stable,
            "steps": self.steps,
            "batches": self.batches,
            "armed_at_exit": self.armed,
            "events": list(self.events),
            "events_cut": len(self.events) >= MAX_EVENTS,
            "compiled_graphs": _compiled_graphs(),
        }


def _compiled_graphs():
    """How many graphs torch.compile built in this process (their fused kernels run unrecorded)."""
    import sys

    dynamo_utils = sys.modules.get("torch._dynamo.utils")
    counters = getattr(dynamo_utils, "counters", None)
    try:
        return int(counters["stats"]["unique_graphs"]) if counters is not None else 0
    except (KeyError, TypeError, ValueError):
        return None


def _wrap(owner, name, make):
    original = owner.__dict__.get(name)
    if original is None:
        return
    wrapper = functools.wraps(original)(make(original))
    setattr(owner, name, wrapper)


def install(torch, recorder, side, process, pacer):
    """Arm the phase signals, the data-side marks and the compile setting (each one optional)."""
    recorder.pacer = pacer
    type(recorder).ignore_compile_internals = classmethod(lambda cls: True)
    for step in (_data_loader, _worker_loop, _module_modes, _optimizer_steps, _cpu_results):
        try:
            step(torch, recorder, side, process, pacer)
        except Exception:  # a torch without that hook point: recorded without it
            continue


def _data_loader(torch, recorder, side, process, pacer):
    import weakref

    from torch.utils.data import dataloader

    seen = weakref.WeakSet()

    def make_iter(original):
        def __iter__(self):
            if self not in seen:
                seen.add(self)
                pacer.rearm("the first iteration of a DataLoader")
            side.data += 1
            try:
                return original(self)
            finally:
                side.data -= 1

        return __iter__

    def make_next(original):
        def __next__(self):
            side.data += 1
            try:
                return original(self)
            except StopIteration:
                pacer.rearm("the end of a DataLoader iteration")  # what follows the loop is a new phase
                raise
            finally:
                side.data -= 1
                pacer.boundary("batch")

        return __next__

    _wrap(dataloader.DataLoader, "__iter__", make_iter)
    _wrap(dataloader._BaseDataLoaderIter, "__next__", make_next)


def _worker_loop(torch, recorder, side, process, pacer):
    from torch.utils.data._utils import worker

    def make(original):
        def _worker_loop(*args, **kwargs):
            process["data_worker"] = True  # a DataLoader worker: every op it runs is data loading
            return original(*args, **kwargs)

        return _worker_loop

    original = worker._worker_loop
    wrapper = functools.wraps(original)(make(original))
    worker._worker_loop = wrapper  # pickled by name for spawned workers: the name still resolves


def _module_modes(torch, recorder, side, process, pacer):
    seen = set()
    depth = [0]

    def make(original):
        def train(self, mode=True):
            if depth[0] == 0 and (id(self), bool(mode)) not in seen:
                seen.add((id(self), bool(mode)))
                pacer.rearm("the first %s() of a module" % ("train" if mode else "eval"))
            depth[0] += 1
            try:
                return original(self, mode)
            finally:
                depth[0] -= 1

        return train

    _wrap(torch.nn.Module, "train", make)


def _optimizer_steps(torch, recorder, side, process, pacer):
    from torch.optim.optimizer import register_optimizer_step_post_hook

    register_optimizer_step_post_hook(lambda optimizer, args, kwargs: pacer.boundary("step"))


def _cpu_results(torch, recorder, side, process, pacer):
    compiling = getattr(getattr(torch, "compiler", None), "is_compiling", lambda: False)
    mark = recorder.mark_cpu_result

    def make(original):
        def cpu(self, *args, **kwargs):
            result = original(self, *args, **kwargs)
            # compiling() first: under torch.compile it is a constant, so no guard on pacer.armed
            if not compiling() and pacer.armed:
                mark(result)
            return result

        return cpu

    _wrap(torch.Tensor, "cpu", make)
    if "cpu" not in torch.Tensor.__dict__:  # inherited from the C base class: wrap it here
        original = torch.Tensor.cpu
        torch.Tensor.cpu = functools.wraps(original)(make(original))


def hide_environment(environ, names, hook_dir):
    """Take mpscheck's variables out of the script's os.environ, and its folder out of PYTHONPATH.

    Only the Python-level mapping changes (``os.environ._data``): the process environment keeps
    them, so a child Python started with the inherited environment is recorded too.
    """
    data = getattr(environ, "_data", None)
    encode = getattr(environ, "encodekey", None)
    encode_value = getattr(environ, "encodevalue", None)
    if data is None or encode is None or encode_value is None:
        return
    for name in names:
        data.pop(encode(name), None)
    path = environ.get("PYTHONPATH")
    if path is None or not hook_dir:
        return
    kept = [entry for entry in path.split(os.pathsep) if entry != hook_dir]
    if kept:
        data[encode("PYTHONPATH")] = encode_value(os.pathsep.join(kept))
    else:
        data.pop(encode("PYTHONPATH"), None)


def record_new_threads(recorder_class, recorder):
    """Dispatch modes are per thread: enter one (sharing the counts) in every thread started later.

    Each new thread enters its mode before its run() and leaves it after, inside the thread's own
    bootstrap; a mode left in a thread's C++ thread-locals at thread exit can abort the process
    ("terminate called without an active exception"), so it is never left there. Where the
    interpreter has no Thread._bootstrap_inner, threads are not recorded.
    """
    original = getattr(threading.Thread, "_bootstrap_inner", None)
    if original is None:
        return

    def bootstrap_inner(thread):
        mode = None
        try:
            mode = recorder_class(shared=recorder)
            mode.__enter__()
        except Exception:  # a thread torch cannot record in still runs
            mode = None
        try:
            original(thread)
        finally:
            if mode is not None:
                with contextlib.suppress(Exception):
                    mode.__exit__(None, None, None)

    threading.Thread._bootstrap_inner = bootstrap_inner
