"""Work done ahead in one background thread, in order, a bounded number of items at a time.

The bench's answer checks compare a device step with the same step on the CPU. The CPU side (the
reference model, its copy, its step) needs nothing from the device, so it runs here while the main
thread checks the matmuls and then each model on the device: torch releases the GIL inside its
kernels, so both sides progress at once. Nothing timed runs beside it: the bench joins this thread
before its first timed stage. At most *ahead* items are made and not yet released, so the memory
held is that of two models, not of all of them.
"""

from __future__ import annotations

import threading


class Ahead:
    def __init__(self, work, ahead=2):
        """*work*: (key, function) pairs, run in order; a function's exception is kept for take()."""
        self._work = list(work)
        self._slots = threading.Semaphore(ahead)
        self._ready = {key: threading.Event() for key, _ in self._work}
        self._results = {}
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="mpscheck-bench-ahead", daemon=True)
        self._thread.start()

    def _run(self):
        for key, function in self._work:
            self._slots.acquire()
            if self._stop:
                return
            try:
                self._results[key] = (True, function())
            except BaseException as exc:  # re-raised in the main thread, inside the stage that asked
                self._results[key] = (False, exc)
            self._ready[key].set()

    def take(self, key):
        """The result for *key*, waiting for it; its exception is raised here."""
        self._ready[key].wait()
        ok, value = self._results.pop(key)
        if not ok:
            raise value
        return value

    def release(self):
        """One item is done with: the thread may make the next."""
        self._slots.release()

    def join(self):
        """Stop making items and wait for the one being made: nothing runs beside what comes next."""
        self._stop = True
        for _ in self._work:
            self._slots.release()
        self._thread.join()
        self._results.clear()
