# Without --kernel-timeout the GPU code has no cancellation point: no flag
# global, no flag load, no `exit` (deadline_ptx.py checks the PTX with it).
# stdout: deadline ptx off ok
from _deadline_kernels import FLAG_LOAD, FLAG_SYMBOL, check_results, ptx_texts

for name, text in ptx_texts().items():
    assert FLAG_LOAD not in text, (name, text)
    assert FLAG_SYMBOL not in text, (name, text)
    assert "exit;" not in text, (name, text)

check_results()
print("deadline ptx off ok")
