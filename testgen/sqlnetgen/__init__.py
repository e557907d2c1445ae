"""sqlnetgen: scripted Oracle SQL*Net server and capture pipeline (see testgen/README.md)."""

GENERATOR_VERSION = 1
