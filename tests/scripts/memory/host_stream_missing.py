# With no streams lent, host_stream raises a KeyError that says how to lend one.
# stdout: missing ok
from numba import cuda

assert cuda.host_stream_names() == []
try:
    cuda.host_stream("default")
    raise SystemExit("host_stream without host streams accepted")
except KeyError as err:
    assert err.args[0] == ("no host stream named 'default'; the host registered none (use `cuhost run --streams N` "
                           "or Runtime::register_stream)"), err.args[0]
try:
    cuda.host_stream(3)
    raise SystemExit("host_stream accepted an int")
except TypeError as err:
    assert str(err) == "host_stream(name): name must be a str, not int"
print("missing ok")
