"""Code used only by the Miller & Hardt chapter (stable recurrent models are feed-forward)."""
