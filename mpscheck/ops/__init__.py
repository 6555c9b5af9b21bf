"""`mpscheck ops` and `mpscheck run`: which aten ops a script runs, and which of them MPS cannot."""
