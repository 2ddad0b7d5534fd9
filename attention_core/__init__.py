"""attention_core: the pure NumPy engine of Attention Explorer.

    from attention_core import attention, lookup, multi_head, nadaraya_watson, query_gradient
    from attention_core import toy_task, train_attention

    r = attention(Q, K, V, score="scaled_dot")   # r.scores, r.weights, r.output, r.steps
    res = lookup([("Zhang", "Aston"), ("Lipton", "Zachary")], "Li")   # res.weights, res.best
    g = query_gradient([1.0, 0.0], K, V)   # g.jacobian, g.weights, g.output
    nw = nadaraya_watson([0.5], [0.0, 1.0], [2.0, 4.0])   # nw.weights, nw.prediction
    mh = multi_head(X, W_q, W_k, W_v, W_o, heads=2, causal=True)   # mh.weights, mh.output
    run = train_attention(toy_task("reverse"), score="general")   # run.loss, run.snapshots

The package's names are the SPEC's public API: these functions, their result types and the
error every one of them raises. Everything else is imported from its module, e.g.
`from attention_core.regression import leave_one_out` or `from attention_core.steps import
STEP_KEYS`.

No Streamlit and no Plotly in here: the app draws what this package computes.
"""

from .attention import AttentionResult, attention
from .errors import AttentionInputError
from .gradient import QueryGradient, query_gradient
from .lookup import LookupResult, lookup
from .multi_head import MultiHeadResult, multi_head
from .regression import NadarayaWatsonResult, nadaraya_watson
from .steps import Step
from .toy_tasks import ToyTask, toy_task
from .training import Snapshot, TrainingRun, model_gradients, model_loss, train_attention

__all__ = [
    "AttentionInputError",
    "AttentionResult",
    "LookupResult",
    "MultiHeadResult",
    "NadarayaWatsonResult",
    "QueryGradient",
    "Snapshot",
    "Step",
    "ToyTask",
    "TrainingRun",
    "attention",
    "lookup",
    "model_gradients",
    "model_loss",
    "multi_head",
    "nadaraya_watson",
    "query_gradient",
    "toy_task",
    "train_attention",
]
