"""``python -m blockclf`` runs the command line."""

from .cli import console

console()
