"""Flynn (2015): timescale separation in contracting recurrent networks (continuous time, numpy float64)."""
