"""Writing for people: the document model, plots, one section per bench, the report, the terminal summary, compare."""
