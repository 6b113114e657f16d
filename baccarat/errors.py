"""The one error type the rules raise: a refusal with a message a dealer understands."""


class RulesError(ValueError):
    """Something the rules do not allow; ``str(error)`` is the message to show."""
