"""Surveillance admin (nothing registered yet)."""
