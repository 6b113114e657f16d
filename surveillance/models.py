"""Surveillance records (none yet)."""
