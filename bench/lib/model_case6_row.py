"""One row of bench/model-case6.sh: a T42 run's normalised errors against the reference.

    model_case6_row.py RECORDS DT_S"""

import sys

from bench_io import points


def main() -> None:
    r = points(sys.argv[1])[0]
    print(f"T42    {sys.argv[2]:>8} {r['h_l1']:11.3e} {r['h_l2']:11.3e} {r['h_linf']:11.3e} {r['v_l2']:11.3e}")


if __name__ == "__main__":
    main()
