"""Inkcard's HTTP service and command line, built on the `layout` engine and `themes`."""
