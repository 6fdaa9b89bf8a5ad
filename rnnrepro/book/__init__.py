"""The book's machinery, shared by every chapter.

Chapters and their profiles (``chapters/``, ``profiles``, ``session``, ``determinism``), the claims
ledger and its criteria (``ledger``, ``criteria``), runs and shipped artefacts (``cli``, ``artifacts``,
``paths``, ``machine``, ``full``, ``sensitivity``), and what the book shows about them (``scorecard``, ``claims_table``,
``cite``, ``plotting``). The user-facing errors are in :mod:`rnnrepro.errors`, below every layer.
"""
