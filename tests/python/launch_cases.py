"""Verdicts over launches with known answers, assembled as pstlab.stats.verdicts.build assembles them."""

import random

from pstlab.stats import stats, verdicts

ROUNDS = 20


def case(launch_factors: list[dict[str, float]], jitter: float = 0.01, draw_key: int = 1) -> verdicts.Case:
    """In launch k alternative a takes launch_factors[k][a] (x 1 ms), with a round-to-round jitter."""
    rng = random.Random(draw_key)  # noqa: S311 (reproducible test data)
    per_launch = [
        {a: [1e-3 * f * (1 + rng.uniform(-jitter, jitter)) for _ in range(ROUNDS)] for a, f in factors.items()}
        for factors in launch_factors
    ]
    labels = list(launch_factors[0])
    out = verdicts.Case(("k",), {a: [t for r in per_launch for t in r[a]] for a in labels}, len(per_launch), [], ROUNDS)
    out.launch_verdicts = [stats.verdict(r) for r in per_launch]
    out.verdict = stats.launch_verdict(per_launch) if len(per_launch) > 1 else out.launch_verdicts[0]
    return out
