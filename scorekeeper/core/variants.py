"""The rule sets, as the rest of the package reads them: the registry and the shapes of its tables.

The tables themselves live in ``scorekeeper/core/rulesets/``, one module per family of rule sets
(see that package's docstring for how to add one). This module keeps ``from scorekeeper.core
import variants`` working: ``variants.get``, ``variants.configure``, ``variants.RULE_SETS``,
``variants.RuleSet`` and the rest are the registry's.
"""

from __future__ import annotations

from scorekeeper.core import rulesets
from scorekeeper.core.rulesets import *  # noqa: F403  (the registry's names, as its __all__ lists them)

__all__ = list(rulesets.__all__)
