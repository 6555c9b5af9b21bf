"""Check rules at their boundaries, so that a changed condition or constant fails a test.

Built from the recorded facts of tests/scenarios.py and tests/test_smoke_checks.py; each test names
the finding's status and the words, values or commands that must be in it. benchmarks/mutation.py
runs these with the other pure tests under mutmut.
"""

from __future__ import annotations
