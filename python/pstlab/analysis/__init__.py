"""Facts drawn from records across benches: families, guardrails, the verdict box, prediction curves, repro."""
