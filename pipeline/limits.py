"""The bounds that the column types set on counts and indices, named once for every layer.

>>> MAX_INT64 == 2**63 - 1
True
"""

MAX_INT64 = 2**63 - 1
"""The largest int64: deal indices, counts of deals, quotas and limits are stored or counted in int64."""
