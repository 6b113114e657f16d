"""Accounting: the gaming day closed, table inventory, fills, credits, drop, win and hold, reports."""
