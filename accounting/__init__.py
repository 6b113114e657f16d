"""Accounting: the gaming day closed, inventory, fills, credits, drop, win and hold, reports."""
