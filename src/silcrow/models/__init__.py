"""The local models: text embedders, the cross-encoder reranker and the ONNX runtime under them.

The lowest domain package: recall (its vectors and reranking) and safety (the semantic
judge) both use it, and it imports neither. The public names are listed in ``__all__``:
the embedder interface (:class:`Embedder`; :func:`get_embedder` makes any of its backends), the
reranker (:class:`Reranker`, :func:`get_reranker`). The modules behind them
(``_embedder``, ``_embedders``, ``_e5``, ``_rerank``) are internal. Every name is imported from its
module on first use: importing the package loads neither numpy nor ONNX Runtime.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# A name imported `as` itself is left out of __all__: it serves silcrow's own packages, which
# may not import this package's private modules, and is not API.
from silcrow._lazy import lazy_getattr

if TYPE_CHECKING:
    from silcrow.models._e5 import E5SmallEmbedder as E5SmallEmbedder
    from silcrow.models._embedder import Embedder
    from silcrow.models._embedder import NullEmbedder as NullEmbedder
    from silcrow.models._embedders import DEFAULT_EMBEDDER as DEFAULT_EMBEDDER
    from silcrow.models._embedders import BgeSmallEmbedder as BgeSmallEmbedder
    from silcrow.models._embedders import FastEmbedEmbedder as FastEmbedEmbedder
    from silcrow.models._embedders import OnnxMiniLMEmbedder as OnnxMiniLMEmbedder
    from silcrow.models._embedders import OpenAIEmbedder as OpenAIEmbedder
    from silcrow.models._embedders import (
        get_embedder,
    )
    from silcrow.models._rerank import CrossEncoderReranker as CrossEncoderReranker
    from silcrow.models._rerank import Reranker, get_reranker

__all__ = [
    "Embedder",
    "Reranker",
    "get_embedder",
    "get_reranker",
]

__getattr__ = lazy_getattr(__name__, {
    "E5SmallEmbedder": "silcrow.models._e5",
    **dict.fromkeys(("Embedder", "NullEmbedder"), "silcrow.models._embedder"),
    **dict.fromkeys(("DEFAULT_EMBEDDER", "BgeSmallEmbedder", "FastEmbedEmbedder", "OnnxMiniLMEmbedder",
                     "OpenAIEmbedder", "get_embedder"), "silcrow.models._embedders"),
    **dict.fromkeys(("CrossEncoderReranker", "Reranker", "get_reranker"), "silcrow.models._rerank"),
})
