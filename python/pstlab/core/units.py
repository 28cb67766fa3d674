"""Numbers as pstlab shows them: times in µs or ms, sizes as pstswm's command line writes them,
shares, ratios; '–' for a value that is missing.  The records hold seconds and bytes."""


def fmt_bytes(n: float | None) -> str:
    """Sizes as pstswm's command line writes them: 8, 4K, 128K, 2M (binary multiples)."""
    if n is None:
        return "–"
    n = int(n)
    for suffix, scale in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale}{suffix}"
    return str(n)


def fmt_num(x: float | None, digits: int = 3) -> str:
    """A number with `digits` significant digits, without scientific notation in the usual range."""
    if x is None:
        return "–"
    if x == 0:
        return "0"
    if abs(x) >= 10 ** (digits + 3) or abs(x) < 1e-3:
        return f"{x:.{digits - 1}e}"
    decimals = max(0, digits - 1 - int(f"{abs(x):e}".split("e")[1]))
    return f"{x:,.{decimals}f}"


def fmt_us(seconds: float | None, digits: int = 3) -> str:
    return "–" if seconds is None else fmt_num(seconds * 1e6, digits)


def fmt_ms(seconds: float | None, digits: int = 3) -> str:
    return "–" if seconds is None else fmt_num(seconds * 1e3, digits)


def fmt_pct(fraction: float | None, signed: bool = False) -> str:
    if fraction is None:
        return "–"
    return f"{fraction * 100:+.0f}%" if signed else f"{fraction * 100:.0f}%"


def fmt_ratio(r: float | None) -> str:
    return "–" if r is None else f"{r:.2f}"


def fmt_sci(x: float | None) -> str:
    return "–" if x is None else f"{x:.4e}"
