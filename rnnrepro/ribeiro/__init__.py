"""Code behind the Ribeiro, Tiels, Aguirre, Schön chapter (memory vs smoothness of RNN costs)."""
