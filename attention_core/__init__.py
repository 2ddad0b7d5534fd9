"""attention_core: the pure NumPy engine of Attention Explorer.

    from attention_core import attention, lookup, multi_head

    r = attention(Q, K, V, score="scaled_dot")   # r.scores, r.weights, r.output, r.steps
    res = lookup([("Zhang", "Aston"), ("Lipton", "Zachary")], "Li")   # res.weights, res.best
    nw = nadaraya_watson([0.5], [0.0, 1.0], [2.0, 4.0])   # nw.weights, nw.prediction
    mh = multi_head(X, W_q, W_k, W_v, W_o, heads=2, causal=True)   # mh.weights, mh.output

No Streamlit and no Plotly in here: the app draws what this package computes.
"""

from .attention import LAYOUTS, NORMALIZATIONS, SCORES, AttentionResult, attention
from .entry import score_terms
from .errors import ERROR_CODES, AttentionInputError
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
from .gradient import (
    GRADIENT_SCORES,
    QueryGradient,
    frobenius_norm,
    query_gradient,
    weighted_covariance,
)
from .lookup import (
    DEFAULT_SIMILARITY,
    SIMILARITIES,
    SIMILARITY_LATEX,
    LookupResult,
    LookupTable,
    Record,
    TopK,
    duplicate_keys,
    explain_similarity,
    lookup,
    lookup_many,
    similarity_score,
    top_k,
)
from .multi_head import (
    MULTI_HEAD_STEP_KEYS,
    MultiHeadResult,
    causal_mask,
    multi_head,
    positional_encoding,
    positional_encoding_entry,
)
from .normalize import normalize_by_sum, softmax
from .regression import (
    BOUNDED_KERNELS,
    KERNEL_LATEX,
    KERNELS,
    NW_STEP_KEYS,
    LeaveOneOut,
    NadarayaWatsonClasses,
    NadarayaWatsonResult,
    RegressionStep,
    SphereBridge,
    bandwidth_range,
    leave_one_out,
    nadaraya_watson,
    nadaraya_watson_classes,
    sphere_bridge,
)
from .scaling import MAX_DEMO_SIZE, SMALL_GRADIENT, ScalingDemo, scaling_demo
from .search import (
    MAX_LEARNING_RATE,
    MAX_SEARCH_STEPS,
    HardLookup,
    SearchPath,
    gradient_search,
    hard_lookup,
    letter_pair_vectors,
    outranking_mix,
    plane_projection,
    search_loss,
)
from .squeeze_excitation import GATES, SqueezeExcitation, squeeze_excitation
from .steps import STEP_KEYS, Step

__all__ = [
    "BOUNDED_KERNELS",
    "DEFAULT_SIMILARITY",
    "ERROR_CODES",
    "GATES",
    "GRADIENT_SCORES",
    "KERNELS",
    "KERNEL_LATEX",
    "LAYOUTS",
    "MAX_DEMO_SIZE",
    "MAX_LEARNING_RATE",
    "MAX_SEARCH_STEPS",
    "MULTI_HEAD_STEP_KEYS",
    "NORMALIZATIONS",
    "NW_STEP_KEYS",
    "SCORES",
    "SIMILARITIES",
    "SIMILARITY_LATEX",
    "SMALL_GRADIENT",
    "STEP_KEYS",
    "AttentionInputError",
    "AttentionResult",
    "Cone",
    "HardLookup",
    "LeaveOneOut",
    "LookupResult",
    "LookupTable",
    "MultiHeadResult",
    "NadarayaWatsonClasses",
    "NadarayaWatsonResult",
    "QueryGradient",
    "Record",
    "RegressionStep",
    "ScalingDemo",
    "SearchPath",
    "SphereBridge",
    "SqueezeExcitation",
    "Step",
    "TopK",
    "WeightCases",
    "attention",
    "bandwidth_range",
    "causal_mask",
    "combine",
    "cone",
    "cone_polygon",
    "convex_hull",
    "duplicate_keys",
    "explain_similarity",
    "fmt",
    "frobenius_norm",
    "gradient_search",
    "hard_lookup",
    "in_cone",
    "in_hull",
    "leave_one_out",
    "letter_pair_vectors",
    "lookup",
    "lookup_many",
    "multi_head",
    "nadaraya_watson",
    "nadaraya_watson_classes",
    "normalize_by_sum",
    "outranking_mix",
    "plane_projection",
    "positional_encoding",
    "positional_encoding_entry",
    "query_gradient",
    "scaling_demo",
    "score_terms",
    "search_loss",
    "similarity_score",
    "softmax",
    "sphere_bridge",
    "squeeze_excitation",
    "top_k",
    "weight_cases",
    "weighted_covariance",
]
