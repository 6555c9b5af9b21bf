"""The commands, one module each; mpscheck/cli.py attaches them to the group. Click only: each command
parses its options, calls the one pipeline, hands the report to the renderers and exits with the
verdict's code. Heavy modules are imported inside the commands so that `mpscheck --help` stays fast.
"""
