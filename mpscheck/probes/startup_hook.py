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
and leave a recording mode of their own (``threading.Thread._bootstrap_inner`` is wrapped for that),
and the phase signals of hook_pacing.py (pausing, data-side marks, mpscheck's variables hidden).
"""

import atexit
import json
import os
import sys
import threading

HOOK_DIR_ENV = "MPSCHECK_HOOK_DIR"
RECORD_ENV = "MPSCHECK_RECORD_OPS"
WARN_ALWAYS_ENV = "MPSCHECK_WARN_ALWAYS"
RECORD_ALL_ENV = "MPSCHECK_RECORD_ALL"
OWN_VARIABLES = (HOOK_DIR_ENV, RECORD_ENV, WARN_ALWAYS_ENV, RECORD_ALL_ENV)
PACING_FILE = "mpscheck_hook_pacing.py"
RECORD_FORMAT = 2
_SETTINGS = {}  # type: dict[str, str]  # mpscheck's own variables, read once at start-up, then hidden from the script


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


class _Sides(threading.local):
    """Where this thread's ops would run on a Mac when the script's device is the GPU: ``data`` > 0
    while the DataLoader machinery runs (sampler, seeding, collate, dataset): the CPU there too."""

    data = 0


_SIDE = _Sides()
_PROCESS = {"data_worker": False}
DATA_SIDE = "data-loading"
CPU_RESULT_SIDE = "cpu-result"


def _make_recorder(torch):
    """The recording mode class: built here because its base class lives in torch."""
    import warnings
    import weakref

    # Importing the dispatch-mode module can warn (e.g. "Failed to initialize NumPy" when numpy is
    # missing): a warning the script itself would never have caused, so it is not shown.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from torch.utils._python_dispatch import TorchDispatchMode

    Tensor = torch.Tensor
    strided = torch.strided
    torch_dir = os.path.dirname(os.path.abspath(torch.__file__)) + os.sep
    data_dir = os.path.join(torch_dir, "utils", "data") + os.sep
    sequence_types = (list, tuple)
    cpu_results = {}  # id(tensor) -> weakref: results of .cpu() and of ops on them only

    def _forget(ref, key=None):
        cpu_results.pop(key, None)

    def mark_cpu_result(value):
        if isinstance(value, Tensor):
            key = id(value)
            cpu_results[key] = weakref.ref(value, lambda ref, key=key: _forget(ref, key))

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
        """Counts calls per (op, dtypes, layout, devices, side); cheap enough to stay on for a run."""

        def __init__(self, shared=None):
            TorchDispatchMode.__init__(self)
            if shared is not None:  # another thread's mode: one set of counts for the process
                self.counts, self.outputs_seen = shared.counts, shared.outputs_seen
                self.first_site, self.lock = shared.first_site, shared.lock
                self.site_side, self.pacer = shared.site_side, shared.pacer
                return
            self.counts = {}
            self.outputs_seen = set()
            self.first_site = {}
            self.site_side = {}  # key -> side read from the stack when the key was first seen
            self.lock = threading.Lock()
            self.pacer = None

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
            side = None
            if _SIDE.data or _PROCESS["data_worker"]:
                side = DATA_SIDE
            elif cpu_results and tensors and all(id(t) in cpu_results for t in inputs):
                side = CPU_RESULT_SIDE
            key = (func, tuple(dtypes), sparse, tuple(devices), tensors == 0, side)
            # Counted before the call, so an op that raises (the script's last) is still seen.
            with self.lock:
                seen = self.counts.get(key)
                self.counts[key] = (seen or 0) + 1
            if seen is None:
                self._first_seen(func, key)
            result = func(*args, **kwargs)
            if isinstance(result, Tensor):
                out_key = (func, result.dtype)
                if out_key not in self.outputs_seen:
                    self.outputs_seen.add(out_key)
                if side == CPU_RESULT_SIDE:
                    mark_cpu_result(result)
            elif isinstance(result, sequence_types):
                for item in result:
                    if isinstance(item, Tensor):
                        out_key = (func, item.dtype)
                        if out_key not in self.outputs_seen:
                            self.outputs_seen.add(out_key)
                        if side == CPU_RESULT_SIDE:
                            mark_cpu_result(item)
            return result

        def _first_seen(self, func, key):
            """A new signature: where the script reached it, and whether torch/utils/data called it."""
            site, under_data = _user_frame(torch_dir, data_dir)
            if (func, key[-1]) not in self.first_site:
                self.first_site[(func, key[-1])] = site
            if under_data and key[-1] is None:
                self.site_side[key] = DATA_SIDE
            if self.pacer is not None:
                self.pacer.new_signature()

    OpRecorder.mark_cpu_result = staticmethod(mark_cpu_result)
    return OpRecorder


def _is_ours(filename, folder):
    return os.path.abspath(filename).startswith(folder)


def _user_frame(torch_dir, data_dir):
    """('file:line' of the innermost frame outside torch and this hook, or None; whether a frame of
    torch/utils/data is on the stack (a sampler, random_split, a dataset helper))."""
    try:
        frame = sys._getframe(3)
    except ValueError:  # a shallow stack: autograd's device threads call in from C++
        return None, False
    here = os.path.dirname(os.path.abspath(__file__)) + os.sep  # this hook's files
    site = None
    under_data = False
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename.startswith(data_dir):
            under_data = True
        elif site is None and not filename.startswith((torch_dir, "<")) and not _is_ours(filename, here):
            site = "%s:%d" % (filename, frame.f_lineno)
        frame = frame.f_back
    return site, under_data


def _records(recorder):
    """The counts as JSON-ready rows, one per op name, layout, side and device class, in first-seen order."""
    rows = {}
    with recorder.lock:
        items = list(recorder.counts.items())
    outputs = {}
    for func, dtype in list(recorder.outputs_seen):
        outputs.setdefault(func, set()).add(_dtype_name(dtype))
    for key, calls in items:
        func, dtypes, sparse, devices, factory, side = key
        side = side or recorder.site_side.get(key)
        accelerated = any(d not in ("cpu", "default", "meta") for d in devices)
        name = func.name() if hasattr(func, "name") else str(func)
        row = rows.get((name, sparse, side, accelerated))
        if row is None:
            row = {
                "name": name,
                "layout": "sparse" if sparse else "strided",
                "side": side,
                "factory": factory,
                "calls": 0,
                "dtypes": set(),
                "devices": set(),
                "out_dtypes": set(outputs.get(func, ())),
                "first_site": recorder.first_site.get((func, key[-1])),
            }
            rows[(name, sparse, side, accelerated)] = row
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
        "pacing": recorder.pacer.summary() if recorder.pacer is not None else None,
    }
    temporary = path + ".part"
    try:
        with open(temporary, "w") as handle:
            json.dump(payload, handle)
        os.replace(temporary, path)
    except OSError as exc:
        sys.stderr.write("mpscheck: could not write the op recording %s: %s\n" % (path, exc))


def _load_pacing():
    """The hook's second file (hook_pacing.py), loaded by path from this file's folder."""
    import importlib.util

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), PACING_FILE)
    if not os.path.exists(path):  # run from the package itself (tests): the module beside this one
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hook_pacing.py")
    spec = importlib.util.spec_from_file_location("_mpscheck_hook_pacing", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _start_recording(torch, prefix, record_all):
    recorder_class = _make_recorder(torch)
    recorder = recorder_class()
    pacing = _load_pacing()
    pacer = pacing.Pacer(recorder, record_all)
    pacing.install(torch, recorder, _SIDE, _PROCESS, pacer)
    recorder.__enter__()  # left only by the pacer, at a safe point, once nothing new appears
    pacing.record_new_threads(recorder_class, recorder)
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
        if _SETTINGS.get(WARN_ALWAYS_ENV) == "1":
            torch.set_warn_always(True)
        prefix = _SETTINGS.get(RECORD_ENV)
        if prefix:
            _start_recording(torch, prefix, _SETTINGS.get(RECORD_ALL_ENV) == "1")
    except Exception as exc:
        sys.stderr.write("mpscheck: the start-up hook could not arm itself: %s: %s\n" % (type(exc).__name__, exc))


def install(environ=None):
    """Chain, hide, and arm the torch watcher (or act at once if torch is already imported)."""
    environ = os.environ if environ is None else environ
    folder = environ.get(HOOK_DIR_ENV)
    _SETTINGS.update((name, environ[name]) for name in OWN_VARIABLES if name in environ)
    if folder:
        _chain_and_hide(folder)
        try:
            _load_pacing().hide_environment(environ, OWN_VARIABLES, folder)
        except Exception as exc:  # the script then sees our variables; it still runs
            sys.stderr.write("mpscheck: the start-up hook could not hide its variables: %s\n" % (exc,))
    if not (_SETTINGS.get(RECORD_ENV) or _SETTINGS.get(WARN_ALWAYS_ENV) == "1"):
        return
    if "torch" in sys.modules:
        _on_torch(sys.modules["torch"])
    else:
        sys.meta_path.insert(0, _TorchWatcher(_on_torch))


if __name__ == "sitecustomize":
    install()
