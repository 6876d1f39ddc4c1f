"""`python -m fairdeal.verify`: the fairdeal-verify command (what --general-paths runs again)."""

from fairdeal.verify.cli import main

main()
