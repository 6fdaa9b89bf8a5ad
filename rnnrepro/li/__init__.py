"""Li, Han, E, Li (ICLR 2021): the curse of memory in linear RNNs.

Modules: :mod:`targets` (memory kernels ρ and their Laplace moments), :mod:`kernels` (RNN kernels
and the model identities of Prop. 3.1), :mod:`approximation` (exponential-sum constructions of
Thms 4.1/4.2 and the curse of memory in approximation), :mod:`diagonal` (closed-form loss (18),
gradient and Hessian of the diagonal model), :mod:`gradient_flow` (Thm 5.1 hitting times),
:mod:`plateau` (plateau detector), :mod:`euler_rnn` (Euler-discretised RNN training, Figs 1 and 4),
:mod:`landscape` (App. D) and :mod:`momentum` (App. E).
"""
