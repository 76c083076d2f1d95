"""Deprecated import path: the batch machinery moved to :mod:`settle.engine.batch` (issue 13).

``from settle.batch import settle_records`` (as the README showed it) keeps working; new code
imports from :mod:`settle.engine.batch`.
"""

from settle.engine.batch import settle_records

__all__ = ["settle_records"]
