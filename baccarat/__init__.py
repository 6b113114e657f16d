"""The rules of baccarat as a framework-free package.

Everything the five rules texts in ``shared/rules`` say about cards, hands, the third-card rule,
outcomes, wagers, commission, pay tables, settlement order and shoe procedures lives here as pure
functions over small typed values. Nothing in this package imports Django (ruff's banned-api rule
and ``tests/rules/test_framework_free.py`` enforce it).
"""
