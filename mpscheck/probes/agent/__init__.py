"""The probe that runs inside the target interpreter: standard library only, Python 3.8 syntax.

main.py is executed by path with the Python being diagnosed. It loads this folder as a private
package ("_mpscheck_agent"), so none of these module names can shadow, or be shadowed by, anything
on the user's sys.path. mpscheck imports nothing from here, and nothing here imports mpscheck.
"""
