# The check the hopper error tests share: compiling a kernel of the calling
# test raises TypingError with a message and the exact line and column of a
# snippet inside the named function of that test's source.


class TypingErrorChecks:
    def __init__(self, path):
        with open(path) as f:
            self.source = f.read().splitlines()
        self.checks = 0

    def expect(self, message, function, snippet, compile_it):
        start = next(i for i, line in enumerate(self.source) if line.startswith("def %s(" % function))
        line = next(i for i in range(start + 1, len(self.source)) if snippet in self.source[i])
        col = self.source[line].index(snippet) + 1
        try:
            compile_it()
        except Exception as e:  # noqa: BLE001 - the class is checked by name
            text = str(e)
            assert type(e).__name__ == "TypingError", (type(e).__name__, text)
            assert message in text, text
            assert ":%d:%d\n" % (line + 1, col) in text, (line + 1, col, text)
            self.checks += 1
            return
        raise AssertionError("no error for: " + message)
