"""Every section of results.log, in the teaching order: the chapters that write the log."""

from __future__ import annotations

from typing import Any

from . import module_0, module_1, module_2, module_3, step_by_step
from ._section import Section

__all__ = ["SECTIONS"]

#: Every section of results.log, in teaching order; each is labelled ``[key]`` in the log.
SECTIONS: tuple[Section[Any], ...] = (
    *module_0.SECTIONS,
    *module_1.SECTIONS,
    *module_2.SECTIONS,
    *module_3.SECTIONS,
    *step_by_step.SECTIONS,
)
