"""Probes: the only code that touches the machine. They gather facts and judge nothing."""
