"""The example merchant in Python, on the standard library only: see README.md."""
