"""The quantities SimGrid reads in a platform (bandwidths, latencies), checked before a generator writes them, so that
a platform it writes is one SimGrid loads with the values given.

The units are those SimGrid 3.32's parser accepts (checked against it: tests/cli/error_cases.sh gives every unit here
to `jobsched mesh-platform`, which reads its options with SimGrid's own parser). A number alone is refused: SimGrid
would warn and assume a unit.
"""
import math
import re
import sys

_DECIMAL_PREFIXES = ["", "k", "M", "G", "T", "P", "E", "Z", "Y"]
_BINARY_PREFIXES = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"]
BANDWIDTH_UNITS = {p + u for p in _DECIMAL_PREFIXES + _BINARY_PREFIXES for u in ("Bps", "bps")}
TIME_UNITS = {"w", "d", "h", "m", "s", "ms", "us", "ns", "ps"}

_QUANTITY = re.compile(r"(?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(?P<unit>[A-Za-z]+)")


def refuse(program, message):
    """One line on stderr, exit status 2 (the project's rule for bad input)."""
    print(f"{program}: error: {message}", file=sys.stderr)
    sys.exit(2)


def check_quantity(program, option, text, units, example):
    """Exits with one line naming `option` unless `text` is a positive finite number followed by one of `units`."""
    m = _QUANTITY.fullmatch(text)
    what = f"{option}: '{text}' is not a positive number with its unit (e.g. {example})"
    if m is None:
        refuse(program, what)
    if m.group("unit") not in units:
        refuse(program, f"{what}; unknown unit '{m.group('unit')}'")
    value = float(m.group("number"))
    if not (value > 0 and math.isfinite(value)):
        refuse(program, what)
    return text


def check_bandwidth(program, option, text):
    return check_quantity(program, option, text, BANDWIDTH_UNITS, "1.25MBps, 10Gbps")


def check_time(program, option, text):
    return check_quantity(program, option, text, TIME_UNITS, "100us, 2.5ms")
