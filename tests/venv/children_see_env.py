"""multiprocessing children (spawn and forkserver start cuhost again, as
sys.executable) see the parent's environment: print what each one sees."""
import multiprocessing as mp
import sys


def seen(_):
    import numpy
    import tabulate

    return sys.prefix, numpy.__version__, tabulate.__version__, sys.executable


if __name__ == "__main__":
    for method in ("spawn", "forkserver"):
        with mp.get_context(method).Pool(2) as pool:
            for row in sorted(set(pool.map(seen, range(4)))):
                print(method, *row)
