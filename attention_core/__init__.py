"""attention_core: the pure NumPy engine of Attention Explorer.

    from attention_core import attention, lookup

    r = attention(Q, K, V, score="scaled_dot")   # r.scores, r.weights, r.output, r.steps
    res = lookup([("Zhang", "Aston"), ("Lipton", "Zachary")], "Li")   # res.weights, res.best

No Streamlit and no Plotly in here: the app draws what this package computes.
"""

from .attention import LAYOUTS, NORMALIZATIONS, SCORES, STEP_TEXT, AttentionResult, Step, attention
from .errors import MESSAGES, AttentionInputError
from .formatting import fmt
from .geometry import (
    Cone,
    WeightCases,
    combine,
    cone,
    cone_polygon,
    convex_hull,
    in_cone,
    in_hull,
    weight_cases,
)
from .lookup import (
                        DEFAULT_SIMILARITY,
                        SIMILARITIES,
                        SIMILARITY_LATEX,
                        LookupResult,
                        LookupTable,
                        Record,
                        duplicate_keys,
                        explain_similarity,
                        lookup,
                        lookup_many,
                        similarity_score,
)
from .normalize import normalize_by_sum, softmax

__all__ = [
                        "DEFAULT_SIMILARITY",
                        "LAYOUTS",
                        "MESSAGES",
                        "NORMALIZATIONS",
                        "SCORES",
                        "SIMILARITIES",
                        "SIMILARITY_LATEX",
                        "STEP_TEXT",
                        "AttentionInputError",
                        "AttentionResult",
                        "Cone",
                        "LookupResult",
                        "LookupTable",
                        "Record",
                        "Step",
                        "WeightCases",
                        "attention",
                        "combine",
                        "cone",
                        "cone_polygon",
                        "convex_hull",
                        "duplicate_keys",
                        "explain_similarity",
                        "fmt",
                        "in_cone",
                        "in_hull",
                        "lookup",
                        "lookup_many",
                        "normalize_by_sum",
                        "similarity_score",
                        "softmax",
                        "weight_cases",
]
