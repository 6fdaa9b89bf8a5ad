"""The book's machinery, shared by every chapter.

Chapters and their profiles (``chapters/``, ``profiles``, ``session``, ``determinism``), the claims
ledger and its criteria (``ledger``, ``criteria``), runs and shipped artefacts (``cli``, ``artifacts``,
``paths``, ``errors``, ``machine``), and what the book shows about them (``scorecard``, ``cite``,
``plotting``).
"""
