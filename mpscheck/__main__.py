"""Entry point for ``python -m mpscheck``."""

from mpscheck.entry import main

if __name__ == "__main__":
    main()
