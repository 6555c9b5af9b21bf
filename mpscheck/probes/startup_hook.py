"""mpscheck's start-up hook: copied as ``sitecustomize.py`` into a temporary folder that
``mpscheck ops`` and ``mpscheck run --trace`` put first on the child's PYTHONPATH.

It runs inside the user's own interpreter (Python 3.8 syntax, standard library and torch only,
never imports mpscheck). It first runs the ``sitecustomize`` it hides, if there is one, then
takes its own folder off ``sys.path`` again, and then, once the script imports torch (a one-shot
import watcher, so a Python that never imports torch pays nothing), does what the environment asks:

- ``MPSCHECK_RECORD_OPS=PREFIX``: enter a recording TorchDispatchMode that counts every aten op
  (forward and backward) with its dtypes, layout and device, and write ``PREFIX.<pid>.json`` at
  exit, so a script that fails still leaves the ops it ran before it failed;
- ``MPSCHECK_WARN_ALWAYS=1``: ``torch.set_warn_always(True)``, so the MPS fallback warning
  (``TORCH_WARN_ONCE``) fires on every call instead of once per process.

Nothing else about the process changes, except that threads started after ``import torch`` enter
and leave a recording mode of their own (``threading.Thread._bootstrap_inner`` is wrapped for that).
"""

import atexit
import contextlib
import json
import os
import sys
import threading

HOOK_DIR_ENV = "MPSCHECK_HOOK_DIR"
RECORD_ENV = "MPSCHECK_RECORD_OPS"
WARN_ALWAYS_ENV = "MPSCHECK_WARN_ALWAYS"
RECORD_FORMAT = 1


def _same_dir(entry, folder):
    try:
        return bool(entry) and os.path.realpath(entry) == os.path.realpath(folder)
    except (OSError, ValueError):
        return False


def _chain_and_hide(folder):
    """Run the sitecustomize this file shadows, then take our folder off sys.path."""
    ours = sys.modules.pop("sitecustomize", None)
    saved = [entry for entry in sys.path if not _same_dir(entry, folder)]
    sys.path[:] = saved
    try:
        import importlib

        importlib.import_module("sitecustomize")
    except ImportError as exc:
        if getattr(exc, "name", None) != "sitecustomize":
            _report_chained_error(exc)
    except Exception as exc:  # the user's own sitecustomize failed: say so as site.py would
        _report_chained_error(exc)
    if "sitecustomize" not in sys.modules and ours is not None:
        sys.modules["sitecustomize"] = ours


def _report_chained_error(exc):
    sys.stderr.write("Error in sitecustomize; set PYTHONVERBOSE for traceback:\n%s: %s\n" % (type(exc).__name__, exc))


class _TorchWatcher(object):
    """A meta-path finder that waits for ``import torch`` to finish, then calls *action* once."""

    def __init__(self, action):
        self.action = action

    def find_spec(self, name, path=None, target=None):
        if name != "torch":
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        import importlib.util

        spec = importlib.util.find_spec(name)
        loader = getattr(spec, "loader", None) if spec is not None else None
        original = getattr(loader, "exec_module", None)
        if original is None:
            return spec
        action = self.action

        def exec_module(module):
            original(module)
            action(module)

        loader.exec_module = exec_module
        return spec

    # Python 3.8's import machinery still asks legacy finders for find_module.
    def find_module(self, name, path=None):
        return None


def _dtype_name(dtype):
    text = str(dtype)
    return text[6:] if text.startswith("torch.") else text


def _make_recorder(torch):
    """The recording mode class: built here because its base class lives in torch."""
    import warnings

    # Importing the dispatch-mode module can warn (e.g. "Failed to initialize NumPy" when numpy is
    # missing): a warning the script itself would never have caused, so it is not shown.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from torch.utils._python_dispatch import TorchDispatchMode

    Tensor = torch.Tensor
    strided = torch.strided
    torch_dir = os.path.dirname(os.path.abspath(torch.__file__)) + os.sep
    sequence_types = (list, tuple)

    def _tensors(args, kwargs):
        """The op's tensor inputs in dispatch order: positional (lists of tensors opened), then keyword."""
        for value in args:
            if isinstance(value, Tensor):
                yield value
            elif isinstance(value, sequence_types):
                for item in value:
                    if isinstance(item, Tensor):
                        yield item
        for value in kwargs.values():
            if isinstance(value, Tensor):
                yield value

    class OpRecorder(TorchDispatchMode):
        """Counts calls per (op, dtypes, layout, devices); cheap enough to stay on for a whole run."""

        def __init__(self, shared=None):
            TorchDispatchMode.__init__(self)
            if shared is not None:  # another thread's mode: one set of counts for the process
                self.counts, self.outputs_seen = shared.counts, shared.outputs_seen
                self.first_site, self.lock = shared.first_site, shared.lock
                return
            self.counts = {}
            self.outputs_seen = set()
            self.first_site = {}
            self.lock = threading.Lock()

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            inputs = list(_tensors(args, kwargs))
            dtypes = [t.dtype for t in inputs]
            devices = [t.device.type for t in inputs]
            sparse = any(t.layout is not strided for t in inputs)
            tensors = len(inputs)
            # An op with TensorOptions (a factory, or a constructor such as
            # _sparse_coo_tensor_with_dims_and_tensors) dispatches on its own layout and device
            # arguments too: a sparse layout picks the SparseMPS kernel whatever its inputs are
            # (and a strided one does not hide a sparse input: the sparse key ranks higher).
            layout = kwargs.get("layout")
            if layout is not None and layout is not strided:
                sparse = True
            device = kwargs.get("device")
            if device is not None:
                devices.append(getattr(device, "type", str(device).split(":")[0]))
            elif not tensors:
                devices.append("default")  # torch's default device: the CPU unless the script changed it
            requested = kwargs.get("dtype")
            if requested is not None and not isinstance(requested, Tensor):
                dtypes.append(requested)
            key = (func, tuple(dtypes), sparse, tuple(devices), tensors == 0)
            # Counted before the call, so an op that raises (the script's last) is still seen.
            with self.lock:
                self.counts[key] = self.counts.get(key, 0) + 1
            if func not in self.first_site:  # once per op: where the script first reached it
                self.first_site[func] = _user_frame(torch_dir)
            result = func(*args, **kwargs)
            if isinstance(result, Tensor):
                out_key = (func, result.dtype)
                if out_key not in self.outputs_seen:
                    self.outputs_seen.add(out_key)
            elif isinstance(result, sequence_types):
                for item in result:
                    if isinstance(item, Tensor):
                        out_key = (func, item.dtype)
                        if out_key not in self.outputs_seen:
                            self.outputs_seen.add(out_key)
            return result

    return OpRecorder


def _user_frame(torch_dir):
    """'file:line' of the innermost frame outside torch and this hook, or None (e.g. autograd's thread)."""
    try:
        frame = sys._getframe(2)
    except ValueError:  # a shallow stack: autograd's device threads call in from C++
        return None
    here = os.path.abspath(__file__)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(torch_dir) and os.path.abspath(filename) != here and not filename.startswith("<"):
            return "%s:%d" % (filename, frame.f_lineno)
        frame = frame.f_back
    return None


def _records(recorder):
    """The counts as JSON-ready rows, one per op name and layout, in first-seen order."""
    rows = {}
    with recorder.lock:
        items = list(recorder.counts.items())
    outputs = {}
    for func, dtype in list(recorder.outputs_seen):
        outputs.setdefault(func, set()).add(_dtype_name(dtype))
    for (func, dtypes, sparse, devices, factory), calls in items:
        name = func.name() if hasattr(func, "name") else str(func)
        row = rows.get((name, sparse))
        if row is None:
            row = {
                "name": name,
                "layout": "sparse" if sparse else "strided",
                "factory": factory,
                "calls": 0,
                "dtypes": set(),
                "devices": set(),
                "out_dtypes": set(outputs.get(func, ())),
                "first_site": recorder.first_site.get(func),
            }
            rows[(name, sparse)] = row
        row["calls"] += calls
        row["factory"] = row["factory"] and factory
        row["dtypes"].update(_dtype_name(d) for d in dtypes)
        row["devices"].update(devices)
    for row in rows.values():
        for field in ("dtypes", "devices", "out_dtypes"):
            row[field] = sorted(row[field])
    return list(rows.values())


def _write(prefix, recorder, torch):
    path = "%s.%d.json" % (prefix, os.getpid())
    payload = {
        "format": RECORD_FORMAT,
        "pid": os.getpid(),
        "ppid": os.getppid(),
        "argv": list(sys.argv),
        "torch": getattr(torch, "__version__", None),
        "cuda": bool(getattr(torch.version, "cuda", None)),
        "ops": _records(recorder),
    }
    temporary = path + ".part"
    try:
        with open(temporary, "w") as handle:
            json.dump(payload, handle)
        os.replace(temporary, path)
    except OSError as exc:
        sys.stderr.write("mpscheck: could not write the op recording %s: %s\n" % (path, exc))


def _record_new_threads(recorder_class, recorder):
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


def _start_recording(torch, prefix):
    recorder_class = _make_recorder(torch)
    recorder = recorder_class()
    recorder.__enter__()  # never left: the mode stays on for the rest of the process
    _record_new_threads(recorder_class, recorder)
    owner = os.getpid()

    def write_at_exit():
        if os.getpid() == owner:  # a forked child inherits atexit handlers; it writes its own file
            _write(prefix, recorder, torch)

    atexit.register(write_at_exit)
    if hasattr(os, "register_at_fork"):

        def forget_in_child():
            # A forked worker (DataLoader) keeps the mode but starts its own count and file.
            with recorder.lock:
                recorder.counts.clear()
            child = os.getpid()

            def write_child():
                if os.getpid() == child:
                    _write(prefix, recorder, torch)

            atexit.register(write_child)

        os.register_at_fork(after_in_child=forget_in_child)


def _on_torch(torch):
    """Never lets an error of ours break the script's ``import torch``: it is reported and skipped."""
    try:
        if os.environ.get(WARN_ALWAYS_ENV) == "1":
            torch.set_warn_always(True)
        prefix = os.environ.get(RECORD_ENV)
        if prefix:
            _start_recording(torch, prefix)
    except Exception as exc:
        sys.stderr.write("mpscheck: the start-up hook could not arm itself: %s: %s\n" % (type(exc).__name__, exc))


def install(environ=None):
    """Chain, hide, and arm the torch watcher (or act at once if torch is already imported)."""
    environ = os.environ if environ is None else environ
    folder = environ.get(HOOK_DIR_ENV)
    if folder:
        _chain_and_hide(folder)
    if not (environ.get(RECORD_ENV) or environ.get(WARN_ALWAYS_ENV) == "1"):
        return
    if "torch" in sys.modules:
        _on_torch(sys.modules["torch"])
    else:
        sys.meta_path.insert(0, _TorchWatcher(_on_torch))


if __name__ == "sitecustomize":
    install()
