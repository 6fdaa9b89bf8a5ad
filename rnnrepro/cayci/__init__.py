"""Cayci & Eryilmaz (2024): gradient descent for diagonal Elman RNNs in the kernel regime."""
