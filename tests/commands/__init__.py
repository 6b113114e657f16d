"""The tablet's commands driven at random through the API, each checked against a fresh read."""
