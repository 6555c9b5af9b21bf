"""Entry point for ``python -m mpscheck``."""

from mpscheck.cli import main

if __name__ == "__main__":
    main()
