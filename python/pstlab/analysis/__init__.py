"""Facts drawn from records across benches: families, guardrails, the verdict box, prediction curves, the
metric rows compare puts side by side, repro."""
