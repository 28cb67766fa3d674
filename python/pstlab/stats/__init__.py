"""Every statistical test, interval and verdict: rounds and launches, Student's t once, the launch floor, B/A ratios."""
