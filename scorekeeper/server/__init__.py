"""What ``python -m scorekeeper`` runs around the app: the plain-HTTP connections that refuse from a
request's head."""
