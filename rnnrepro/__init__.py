"""rnnrepro: models, trainers and analysis tools behind the rnnrepro book.

The book replicates five theory papers on training recurrent networks; each chapter records its
claims in a :class:`rnnrepro.book.ledger.Ledger`. See CONTRIBUTING.md for the chapter contract.
"""

__version__ = "0.1.0"
